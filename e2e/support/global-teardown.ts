import { rmSync } from 'node:fs';

/** The web server removes its temporary copy when it stops; this catches a server that was killed. */
export default function globalTeardown(): void {
  const runDir = process.env.E2E_RUN_DIR;
  if (runDir && !process.env.E2E_KEEP_RUN_DIR) rmSync(runDir, { recursive: true, force: true });
}
