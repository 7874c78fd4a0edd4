import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** OWASP's password storage cheat sheet: argon2id with 19 MiB of memory, 2 iterations, 1 lane. */
// The package's Algorithm is a const enum, which isolated modules cannot read: 2 is Argon2id.
export const ARGON2ID_OWASP = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OWASP);
}

/** False for a wrong password or a hash that cannot be read; never throws on user input. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a password nobody has, verified when the email is unknown so that a sign-in
 * attempt takes as long whether the account exists or not.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  return decoyHash;
}
