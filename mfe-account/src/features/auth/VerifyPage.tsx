import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { AUTH_PATHS, LinkToken, VerifyEmailAnswer } from '@bimi/contracts/auth';
import { SITE_NAME } from '@bimi/contracts/site';
import { getSession } from '@bimi/session/client';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AuthCard } from '../../components/AuthCard';
import { callApi, failureMessage } from '@bimi/session/api';
import { forgetReturnPath, readReturnPath } from '@bimi/session/return-path';
import { withCallback } from './return-path';

type State = { step: 'verifying' } | { step: 'done'; answer: VerifyEmailAnswer } | { step: 'failed'; message: string };

/** The heading and document title of each step; while verifying, the route's own title (routes.json). */
const STEP_TITLES = { done: 'Email verified', failed: 'Link expired or invalid' } as const;

/** The link of a verification mail: the token is consumed once, on arrival. */
export function VerifyPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ step: 'verifying' });
  const sent = useRef(false);
  // Set by the sign-up that sent this link (in this browser), e.g. /checkout: signing in returns there.
  const [returnPath] = useState(readReturnPath);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const checked = LinkToken.safeParse(token);
    if (!checked.success) {
      setState({ step: 'failed', message: checked.error.issues[0]?.message ?? 'The link is invalid or incomplete' });
      return;
    }
    callApi(AUTH_PATHS.verify, { method: 'POST', body: { token: checked.data }, answer: VerifyEmailAnswer })
      .then(async (answer) => {
        // An email change shows at once in the header and the sidebar.
        if (answer.purpose === 'email-change') await getSession();
        else forgetReturnPath();
        setState({ step: 'done', answer });
      })
      .catch((error: unknown) => setState({ step: 'failed', message: failureMessage(error) }));
  }, [token]);

  const title = state.step === 'verifying' ? route.title : STEP_TITLES[state.step];
  useEffect(() => {
    // The shell titles the page from routes.json on navigation; the outcome is only known here.
    if (state.step !== 'verifying') document.title = `${title} | ${SITE_NAME}`;
  }, [state.step, title]);

  return (
    <AuthCard title={title}>
      {state.step === 'verifying' && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={22} />
          <span>Verifying your email address…</span>
        </Stack>
      )}
      {state.step === 'done' && (
        <Stack spacing={2}>
          <Alert severity="success">{state.answer.message}</Alert>
          {state.answer.purpose === 'signup' ? (
            <Button component={RouterLink} to={withCallback('/auth/signin', returnPath, { message: 'verified', email: state.answer.email })} variant="contained">
              Sign in
            </Button>
          ) : (
            <Button component={RouterLink} to="/account/settings/profile" variant="contained">
              Back to your profile
            </Button>
          )}
        </Stack>
      )}
      {state.step === 'failed' && (
        <Stack spacing={2}>
          <Alert severity="error">{state.message}</Alert>
          <Button component={RouterLink} to="/auth/signin" variant="outlined">
            Go to sign in
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
