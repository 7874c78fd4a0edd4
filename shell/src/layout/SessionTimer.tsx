import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '@bimi/session/useSession';
import { expireSession, watchIdle } from './idle-session';

/** Watches a signed-in user's activity and ends the session after the idle limit (spec §4). */
export function SessionTimer() {
  const { status } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    if (status !== 'authenticated') return;
    return watchIdle(() => expireSession((path) => navigate(path)));
  }, [status, navigate]);
  return null;
}
