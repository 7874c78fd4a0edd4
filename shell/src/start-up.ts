/** A new task: the browser paints and answers input between the start-up's parts. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let librariesRun: Promise<void> = Promise.resolve();

/**
 * The browser's start-up runs the shared libraries' modules part by part, a task each
 * (bootstrap.tsx), and says so here before the first part. Code of the shell's that arrives
 * meanwhile waits for them (`afterLibraries`) before it runs its own modules: run at once, it would
 * run every library module it imports that the start-up has not reached yet, in one task (the
 * account frame did: MUI's Box, its styled() and Emotion's sheet with the frame's own modules, a
 * task of about 20 ms on the 2-core host, the dashboard's longest). On the server, and once the
 * start-up is done, nothing waits.
 */
export function runLibrariesFirst(parts: Promise<void>): void {
  librariesRun = parts.catch(() => {});
}

export const afterLibraries = (): Promise<void> => librariesRun;
