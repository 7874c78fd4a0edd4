import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import * as z from 'zod/mini';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AUTH_PATHS, AcceptedAnswer, Email, GivenPassword, SIGN_IN_ERRORS } from '@bimi/contracts/auth';
import { signIn } from '@bimi/session/client';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { callApi, failureMessage } from '@bimi/session/api';
import { safeReturnPath } from '@bimi/session/return-path';
import { checkForm, type FieldErrors } from '../../lib/api';

const SignInForm = z.object({ email: Email, password: GivenPassword });

/** Messages other pages send the user here with (?message=…). */
const ARRIVAL_MESSAGES: Record<string, { severity: 'info' | 'success'; text: string }> = {
  session_expired: { severity: 'info', text: 'Your session has expired for security reasons. Please sign in again.' },
  verified: { severity: 'success', text: 'Your email address is verified. You can sign in now.' },
  password_reset: { severity: 'success', text: 'Your password was changed. Sign in with your new password.' },
};

function errorText(code: string | null): string | null {
  if (!code) return null;
  return code in SIGN_IN_ERRORS ? SIGN_IN_ERRORS[code as keyof typeof SIGN_IN_ERRORS] : 'Sign-in failed. Please try again.';
}

export function SignInPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const returnTo = safeReturnPath(params.get('callbackUrl'));
  const arrival = ARRIVAL_MESSAGES[params.get('message') ?? ''];
  const arrivalError = params.get('error');

  const [values, setValues] = useState({ email: params.get('email') ?? '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ code: string | null; text: string } | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(SignInForm, values);
    setErrors(checked.errors ?? {});
    if (!checked.data) return;
    setBusy(true);
    setFailure(null);
    setResent(null);
    const result = await signIn('credentials', { ...checked.data, callbackUrl: returnTo, redirect: false });
    setBusy(false);
    if (!result) return; // the client went to another page itself
    if (result.ok) {
      navigate(returnTo, { replace: true });
      return;
    }
    setFailure({ code: result.error, text: result.message ?? errorText(result.error) ?? 'Sign-in failed. Please try again.' });
  };

  const resend = async () => {
    try {
      const answer = await callApi(AUTH_PATHS.resendVerification, { method: 'POST', body: { email: values.email }, answer: AcceptedAnswer });
      setResent(answer.message);
    } catch (error) {
      setResent(failureMessage(error));
    }
  };

  return (
    <AuthCard
      title={route.title}
      lead="Sign in to your account to manage certificates, monitors and billing."
      footer={
        <>
          New here?{' '}
          <Link component={RouterLink} to={params.get('callbackUrl') ? `/auth/signup?${new URLSearchParams({ callbackUrl: returnTo })}` : '/auth/signup'}>
            Create an account
          </Link>
        </>
      }
    >
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Sign in">
        {arrival && !failure && <Alert severity={arrival.severity}>{arrival.text}</Alert>}
        {arrivalError && !failure && <Alert severity={arrivalError === 'SessionRequired' ? 'info' : 'error'}>{errorText(arrivalError)}</Alert>}
        {failure && (
          <Alert
            severity="error"
            action={
              failure.code === 'EmailNotVerified' ? (
                <Button color="inherit" size="small" onClick={resend}>
                  Resend link
                </Button>
              ) : undefined
            }
          >
            {failure.text}
          </Alert>
        )}
        {resent && <Alert severity="info">{resent}</Alert>}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => setValues({ ...values, email: e.target.value })}
          error={Boolean(errors.email)}
          helperText={errors.email}
          fullWidth
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => setValues({ ...values, password: e.target.value })}
          error={Boolean(errors.password)}
          helperText={errors.password}
          fullWidth
        />
        <Link component={RouterLink} to="/forgot-password" sx={{ alignSelf: 'flex-end', fontSize: 14 }}>
          Forgot your password?
        </Link>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </Stack>
    </AuthCard>
  );
}
