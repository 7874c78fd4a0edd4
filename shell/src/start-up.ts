let startUpPartsRun: Promise<void> = Promise.resolve();

/**
 * The browser's start-up runs the shared libraries' modules and the shell's frame part by part, a
 * task each (bootstrap.tsx), and records that run here before its first part. Code of the shell's
 * that arrives meanwhile waits for it (`afterStartUpParts`) before it runs its own modules: run at
 * once, it would run every library module it imports that the start-up has not reached yet, in one
 * task (the account frame did: MUI's Box, its styled() and Emotion's sheet with the frame's own
 * modules, a task of about 20 ms on the 2-core host, the dashboard's longest). On the server, and
 * once the start-up is done, nothing waits for it.
 */
export function recordStartUpParts(parts: Promise<void>): void {
  startUpPartsRun = parts.catch(() => {});
}

export const afterStartUpParts = (): Promise<void> => startUpPartsRun;
