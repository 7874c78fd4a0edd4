import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AUTH_PATHS, SignUpAnswer, SignUpRequest } from '@bimi/contracts/auth';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { PasswordRules } from '../../components/PasswordRules';
import { callApi, failureMessage } from '@bimi/session/api';
import { rememberReturnPath, safeReturnPath } from '@bimi/session/return-path';
import { checkForm, type FieldErrors } from '../../lib/api';
import { withCallback } from './return-path';

export function SignUpPage({ route }: PageProps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Where to come back to once verified (checkout, for example): kept through check-email, verify and sign-in.
  const callbackUrl = params.get('callbackUrl') ? safeReturnPath(params.get('callbackUrl')) : null;
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues({ ...values, [field]: e.target.value });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(SignUpRequest, values);
    setErrors(checked.errors ?? {});
    if (!checked.data) return;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await callApi(AUTH_PATHS.signUp, { method: 'POST', body: checked.data, answer: SignUpAnswer });
      rememberReturnPath(callbackUrl);
      navigate(withCallback('/auth/check-email', callbackUrl, { email: answer.email }));
    } catch (error) {
      setFailure(failureMessage(error));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={route.title}
      lead="One account for your certificates, DMARC plans, monitors and free tools."
      footer={
        <>
          Already have an account?{' '}
          <Link component={RouterLink} to={withCallback('/auth/signin', callbackUrl)}>
            Sign in
          </Link>
          <br />
          Reselling certificates?{' '}
          <Link component={RouterLink} to="/auth/partner-signup">
            Become a partner
          </Link>
        </>
      }
    >
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Create your account">
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextField label="Name" autoComplete="name" value={values.name} onChange={set('name')} error={Boolean(errors.name)} helperText={errors.name} fullWidth autoFocus />
        <TextField label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={Boolean(errors.email)} helperText={errors.email} fullWidth />
        <div>
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={Boolean(errors.password)}
            helperText={errors.password}
            fullWidth
          />
          <PasswordRules password={values.password} email={values.email} />
        </div>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </Button>
      </Stack>
    </AuthCard>
  );
}
