import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

const HOUR = 60 * 60 * 1000;
/** How long a mailed link works: verification and email change (the mail says 24 hours), password reset. */
export const VERIFICATION_LIFETIME_MS = 24 * HOUR;
export const RESET_LIFETIME_MS = HOUR;

/** A token for a mailed link: 256 random bits, URL-safe. Only its hash is stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newId(): string {
  return randomUUID();
}

/** Compares two strings without leaking, through timing, how much of them matched. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
