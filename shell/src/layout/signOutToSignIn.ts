import { signOut } from '@bimi/session/client';
import { SIGN_IN_PATH } from './navigation';

/** Every Sign Out of the site: spec §7, sign-out returns to the sign-in page. */
export function signOutToSignIn(): void {
  void signOut({ callbackUrl: SIGN_IN_PATH });
}
