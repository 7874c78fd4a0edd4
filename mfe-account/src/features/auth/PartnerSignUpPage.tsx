import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AcceptedAnswer, AUTH_PATHS } from '@bimi/contracts/auth';
import { PartnerSignUpRequest } from '@bimi/contracts/partners';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { callApi } from '@bimi/session/api';
import { useNoticeForm } from '../../lib/useNoticeForm';

const EMPTY = { company: '', website: '', contactName: '', email: '', phone: '', message: '' };

/** Resellers and agencies ask to become partners; the request is stored for review. */
export function PartnerSignUpPage({ route }: PageProps) {
  const [values, setValues] = useState(EMPTY);
  const { errors, notice, busy, submit } = useNoticeForm(PartnerSignUpRequest, async (data) => {
    const answer = await callApi(AUTH_PATHS.partnerSignUp, { method: 'POST', body: data, answer: AcceptedAnswer });
    setValues(EMPTY);
    return { severity: 'success', text: answer.message };
  });
  const field = (name: keyof typeof EMPTY) => ({
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues({ ...values, [name]: e.target.value }),
    error: Boolean(errors[name]),
    helperText: errors[name],
    fullWidth: true,
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Optional fields left empty are left out, not sent as empty text.
    const { phone, message, ...required } = values;
    void submit({ ...required, ...(phone.trim() ? { phone } : {}), ...(message.trim() ? { message } : {}) });
  };

  return (
    <AuthCard
      title={route.title}
      lead="Resell mark certificates and DMARC plans to your clients. Tell us about your company and we’ll be in touch."
      footer={
        <Link component={RouterLink} to="/auth/signin">
          Back to sign in
        </Link>
      }
    >
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Partner application">
        {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
        <TextField label="Company" autoComplete="organization" {...field('company')} autoFocus />
        <TextField label="Website" autoComplete="url" placeholder="https://example.com" {...field('website')} />
        <TextField label="Contact name" autoComplete="name" {...field('contactName')} />
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <TextField label="Phone (optional)" type="tel" autoComplete="tel" {...field('phone')} />
        <TextField label="Anything we should know? (optional)" multiline minRows={3} {...field('message')} />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Apply
        </Button>
      </Stack>
    </AuthCard>
  );
}
