/**
 * A new task: the browser paints and answers input before the caller goes on. At once where
 * nothing is painted: on the server, and in a hidden tab, where a timer waits a second or more.
 */
export function nextTask(): Promise<void> {
  if (typeof document === 'undefined' || document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
