import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AcceptedAnswer, AUTH_PATHS, ForgotPasswordRequest } from '@bimi/contracts/auth';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { callApi, checkForm, failureMessage, type FieldErrors } from '../../lib/api';

export function ForgotPasswordPage({ route }: PageProps) {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(ForgotPasswordRequest, { email });
    setErrors(checked.errors ?? {});
    if (!checked.data) return;
    setBusy(true);
    try {
      const answer = await callApi(AUTH_PATHS.forgotPassword, { method: 'POST', body: checked.data, answer: AcceptedAnswer });
      setNotice({ severity: 'success', text: answer.message });
    } catch (error) {
      setNotice({ severity: 'error', text: failureMessage(error) });
    }
    setBusy(false);
  };

  return (
    <AuthCard
      title={route.title}
      lead="Enter the email address of your account and we’ll send you a link to choose a new password."
      footer={
        <Link component={RouterLink} to="/auth/signin">
          Back to sign in
        </Link>
      }
    >
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Reset your password">
        {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={Boolean(errors.email)} helperText={errors.email} fullWidth autoFocus />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Send reset link
        </Button>
      </Stack>
    </AuthCard>
  );
}
