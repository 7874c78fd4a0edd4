import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AcceptedAnswer, AUTH_PATHS, Email } from '@bimi/contracts/auth';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { callApi, failureMessage } from '@bimi/session/api';
import { safeReturnPath } from '@bimi/session/return-path';
import { withCallback } from './return-path';

/**
 * After sign-up. The bff answers a sign-up the same whether or not the address already has an
 * account (it must not tell), so this page fits both: a new account's mail holds a verification
 * link, an existing account's mail says so and links to sign-in and password reset.
 */
export function CheckEmailPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const email = Email.safeParse(params.get('email') ?? '');
  const callbackUrl = params.get('callbackUrl') ? safeReturnPath(params.get('callbackUrl')) : null;
  const [notice, setNotice] = useState<{ severity: 'info' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const resend = async () => {
    if (!email.success) return;
    setBusy(true);
    try {
      const answer = await callApi(AUTH_PATHS.resendVerification, { method: 'POST', body: { email: email.data }, answer: AcceptedAnswer });
      setNotice({ severity: 'info', text: answer.message });
    } catch (error) {
      setNotice({ severity: 'error', text: failureMessage(error) });
    }
    setBusy(false);
  };

  return (
    <AuthCard title={route.title}>
      <Stack spacing={2}>
        <Typography>
          {email.success ? (
            <>
              We sent an email to <strong>{email.data}</strong>. Open it to continue: for a new account it holds a link that verifies your email address, then you can sign in.
            </>
          ) : (
            'We sent you an email. Open it to continue: for a new account it holds a link that verifies your email address, then you can sign in.'
          )}
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: 15 }}>
          If this address already has an account, the email says so and tells you how to sign in or reset your password.
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: 15 }}>
          The mail can take a minute to arrive. Check your spam folder if you don’t see it.
        </Typography>
        {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
        {email.success && (
          <Button variant="outlined" onClick={resend} disabled={busy}>
            Send the link again
          </Button>
        )}
        <Link component={RouterLink} to={withCallback('/auth/signin', callbackUrl)}>
          Back to sign in
        </Link>
      </Stack>
    </AuthCard>
  );
}
