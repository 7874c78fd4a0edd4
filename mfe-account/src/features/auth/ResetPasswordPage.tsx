import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AcceptedAnswer, AUTH_PATHS, LinkToken, ResetPasswordRequest } from '@bimi/contracts/auth';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { PasswordRules } from '../../components/PasswordRules';
import { callApi, failureMessage } from '@bimi/session/api';
import { checkForm, type FieldErrors } from '../../lib/api';

export function ResetPasswordPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = LinkToken.safeParse(params.get('token') ?? '');
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(ResetPasswordRequest, { token: params.get('token') ?? '', password: values.password });
    const found: FieldErrors = { ...checked.errors };
    if (!found.password && values.confirm !== values.password) found.confirm = 'The two passwords are not the same';
    setErrors(found);
    if (!checked.data || found.confirm) return;
    setBusy(true);
    setFailure(null);
    try {
      await callApi(AUTH_PATHS.resetPassword, { method: 'POST', body: checked.data, answer: AcceptedAnswer });
      navigate('/auth/signin?message=password_reset', { replace: true });
    } catch (error) {
      setFailure(failureMessage(error));
      setBusy(false);
    }
  };

  if (!token.success) {
    return (
      <AuthCard title={route.title}>
        <Stack spacing={2}>
          <Alert severity="error">{token.error.issues[0]?.message ?? 'The link is invalid or incomplete'}</Alert>
          <Button component={RouterLink} to="/forgot-password" variant="contained">
            Ask for a new link
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={route.title}
      footer={
        <Link component={RouterLink} to="/forgot-password">
          Ask for a new link
        </Link>
      }
    >
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Choose a new password">
        {failure && <Alert severity="error">{failure}</Alert>}
        <div>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => setValues({ ...values, password: e.target.value })}
            error={Boolean(errors.password)}
            helperText={errors.password}
            fullWidth
            autoFocus
          />
          <PasswordRules password={values.password} />
        </div>
        <TextField
          label="Repeat the new password"
          type="password"
          autoComplete="new-password"
          value={values.confirm}
          onChange={(e) => setValues({ ...values, confirm: e.target.value })}
          error={Boolean(errors.confirm)}
          helperText={errors.confirm}
          fullWidth
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Save new password
        </Button>
      </Stack>
    </AuthCard>
  );
}
