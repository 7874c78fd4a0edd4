import { useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AcceptedAnswer, AUTH_PATHS, Email, GivenPassword, SIGN_IN_ERRORS, SignUpAnswer, SignUpRequest } from '@bimi/contracts/auth';
import { signIn } from '@bimi/session/client';
import { useSession } from '@bimi/session/useSession';
import { callApi, failureMessage } from '@bimi/session/api';
import { rememberReturnPath } from '@bimi/session/return-path';

const SignInForm = z.object({ email: Email, password: GivenPassword });
type Errors = Partial<Record<string, string>>;

function fieldErrors<T>(schema: z.ZodMiniType<T>, values: unknown): { data: T | null; errors: Errors } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: Errors = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return { data: null, errors };
}

function signInFailure(code: string | null, message?: string): string {
  if (message) return message;
  return code && code in SIGN_IN_ERRORS ? SIGN_IN_ERRORS[code as keyof typeof SIGN_IN_ERRORS] : 'Sign-in failed. Please try again.';
}

/**
 * Who is buying, without leaving checkout: sign in, or create an account right here. A new
 * account must verify its email first; the mailed link brings the buyer back to /checkout (the
 * cart is kept in the browser meanwhile), and they can also sign in here once verified.
 */
export function AccountStep() {
  const { data: session, status } = useSession();
  const [mode, setMode] = useState<'signup' | 'signin'>('signup');
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues({ ...values, [field]: e.target.value });

  if (status === 'loading') return <Typography color="text.secondary">Checking your session…</Typography>;
  if (session) {
    return (
      <Typography data-testid="checkout-signed-in">
        Signed in as <strong>{session.user.name}</strong> ({session.user.email}). Your orders will be in this account.
      </Typography>
    );
  }

  const signUp = async (event: FormEvent) => {
    event.preventDefault();
    const checked = fieldErrors(SignUpRequest, values);
    setErrors(checked.errors);
    if (!checked.data) return;
    setBusy(true);
    setFailure(null);
    try {
      rememberReturnPath('/checkout');
      const answer = await callApi(AUTH_PATHS.signUp, { method: 'POST', body: checked.data, answer: SignUpAnswer });
      setSentTo(answer.email);
      setValues({ ...values, password: '' });
    } catch (error) {
      setFailure(failureMessage(error));
    }
    setBusy(false);
  };

  const doSignIn = async (event: FormEvent) => {
    event.preventDefault();
    const checked = fieldErrors(SignInForm, { email: sentTo ?? values.email, password: values.password });
    setErrors(checked.errors);
    if (!checked.data) return;
    setBusy(true);
    setFailure(null);
    const result = await signIn('credentials', { ...checked.data, callbackUrl: '/checkout', redirect: false });
    setBusy(false);
    if (result && !result.ok) setFailure(signInFailure(result.error, result.message));
    // Signed in: the shared session store changes and this step shows the account.
  };

  const resend = async () => {
    if (!sentTo) return;
    try {
      const answer = await callApi(AUTH_PATHS.resendVerification, { method: 'POST', body: { email: sentTo }, answer: AcceptedAnswer });
      setNotice(answer.message);
    } catch (error) {
      setNotice(failureMessage(error));
    }
  };

  const passwordField = (autoComplete: string) => (
    <TextField
      label="Password"
      type="password"
      autoComplete={autoComplete}
      value={values.password}
      onChange={set('password')}
      error={Boolean(errors.password)}
      helperText={errors.password ?? (mode === 'signup' && !sentTo ? 'At least 10 characters, with a letter and a number or symbol.' : undefined)}
      fullWidth
    />
  );

  if (sentTo) {
    return (
      <Stack spacing={2} data-testid="checkout-check-email">
        <Alert severity="info">
          We sent a link to <strong>{sentTo}</strong>. Open it to verify your email address: it brings you back to this checkout with your cart.
        </Alert>
        <Typography color="text.secondary" sx={{ fontSize: 15 }}>
          Verified already, in another tab? Sign in here to continue.
        </Typography>
        <Stack component="form" noValidate onSubmit={doSignIn} spacing={2} aria-label="Sign in after verifying">
          {failure && <Alert severity="error">{failure}</Alert>}
          {passwordField('current-password')}
          <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
            <Button type="submit" variant="contained" disabled={busy}>
              Sign in
            </Button>
            <Button variant="text" onClick={resend}>
              Send the link again
            </Button>
          </Box>
          {notice && <Alert severity="info">{notice}</Alert>}
        </Stack>
      </Stack>
    );
  }

  return (
    <Box>
      <Typography color="text.secondary" sx={{ fontSize: 15, mb: 1 }}>
        Your orders, certificates and receipts live in your account. Create one here, or{' '}
        <Link component={RouterLink} to="/auth/signin?callbackUrl=%2Fcheckout">
          Sign in to continue
        </Link>{' '}
        on the sign-in page; either way you come back to this checkout with your cart.
      </Typography>
      <Tabs
        value={mode}
        onChange={(_, next: 'signup' | 'signin') => {
          setMode(next);
          setFailure(null);
          setErrors({});
        }}
        aria-label="Account"
        sx={{ mb: 2 }}
      >
        <Tab value="signup" label="Create an account" />
        <Tab value="signin" label="Sign in" />
      </Tabs>
      {mode === 'signup' ? (
        <Stack component="form" noValidate onSubmit={signUp} spacing={2} aria-label="Create your account">
          {failure && <Alert severity="error">{failure}</Alert>}
          <TextField label="Name" autoComplete="name" value={values.name} onChange={set('name')} error={Boolean(errors.name)} helperText={errors.name} fullWidth />
          <TextField label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={Boolean(errors.email)} helperText={errors.email} fullWidth />
          {passwordField('new-password')}
          <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }} data-testid="theme-probe">
            {busy ? 'Creating your account…' : 'Create account'}
          </Button>
        </Stack>
      ) : (
        <Stack component="form" noValidate onSubmit={doSignIn} spacing={2} aria-label="Sign in">
          {failure && <Alert severity="error">{failure}</Alert>}
          <TextField label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={Boolean(errors.email)} helperText={errors.email} fullWidth />
          {passwordField('current-password')}
          <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
