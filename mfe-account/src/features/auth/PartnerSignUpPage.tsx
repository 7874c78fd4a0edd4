import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AcceptedAnswer, AUTH_PATHS, PartnerSignUpRequest } from '@bimi/contracts/auth';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { callApi, checkForm, failureMessage, type FieldErrors } from '../../lib/api';

const EMPTY = { company: '', website: '', contactName: '', email: '', phone: '', message: '' };

/** Resellers and agencies ask to become partners; the request is stored for review. */
export function PartnerSignUpPage({ route }: PageProps) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const field = (name: keyof typeof EMPTY) => ({
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues({ ...values, [name]: e.target.value }),
    error: Boolean(errors[name]),
    helperText: errors[name],
    fullWidth: true,
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { phone, message, ...required } = values;
    const checked = checkForm(PartnerSignUpRequest, { ...required, ...(phone.trim() ? { phone } : {}), ...(message.trim() ? { message } : {}) });
    setErrors(checked.errors ?? {});
    if (!checked.data) return;
    setBusy(true);
    try {
      const answer = await callApi(AUTH_PATHS.partnerSignUp, { method: 'POST', body: checked.data, answer: AcceptedAnswer });
      setNotice({ severity: 'success', text: answer.message });
      setValues(EMPTY);
    } catch (error) {
      setNotice({ severity: 'error', text: failureMessage(error) });
    }
    setBusy(false);
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
