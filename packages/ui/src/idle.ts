/**
 * Work a page can do without, started when the browser is idle once the visitor has moved,
 * scrolled, tapped or typed: a preload of the next remote, of a dialog's code. On the first page a
 * visitor opens, such work would otherwise compete with the code the page itself needs, and a phone
 * that has just made the page live would be kept busy by code nobody asked for yet (issue 34: a
 * preload's start-up was a long task of the page's load). One instance per page (`@bimi/ui` is a
 * singleton), so once the visitor has acted, later pages run such work on idle at once.
 */

const VISITOR_ACTS = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown'] as const;

/** Whether the visitor has moved, scrolled, tapped or typed on this document yet. */
let visitorActed = false;

/** Runs `then` once the visitor first acts on the page, at once if they have; the answer stops waiting. */
function whenVisitorActs(then: () => void): () => void {
  if (visitorActed) {
    then();
    return () => {};
  }
  const stop = () => VISITOR_ACTS.forEach((type) => window.removeEventListener(type, onAct, { capture: true }));
  const onAct = () => {
    visitorActed = true;
    stop();
    then();
  };
  VISITOR_ACTS.forEach((type) => window.addEventListener(type, onAct, { capture: true, passive: true }));
  return stop;
}

/** Runs `task` when the browser is idle after the visitor first acted; the answer cancels it if it has not run. */
export function whenIdleAfterVisitorActs(task: () => void): () => void {
  // Safari has no requestIdleCallback: a timeout stands in.
  const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 1500));
  const cancel = window.cancelIdleCallback ?? window.clearTimeout;
  let handle: number | undefined;
  const stopWaiting = whenVisitorActs(() => {
    handle = idle(() => {
      handle = undefined;
      task();
    });
  });
  return () => {
    stopWaiting();
    if (handle !== undefined) cancel(handle);
  };
}
