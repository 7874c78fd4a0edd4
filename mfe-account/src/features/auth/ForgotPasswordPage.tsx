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
import { callApi } from '@bimi/session/api';
import { useNoticeForm } from '../../lib/useNoticeForm';

export function ForgotPasswordPage({ route }: PageProps) {
  const [email, setEmail] = useState('');
  const { errors, notice, busy, submit } = useNoticeForm(ForgotPasswordRequest, async (data) => {
    const answer = await callApi(AUTH_PATHS.forgotPassword, { method: 'POST', body: data, answer: AcceptedAnswer });
    return { severity: 'success', text: answer.message };
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit({ email });
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
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(errors.email)}
          helperText={errors.email}
          fullWidth
          autoFocus
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Send reset link
        </Button>
      </Stack>
    </AuthCard>
  );
}
