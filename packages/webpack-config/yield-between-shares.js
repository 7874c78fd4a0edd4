// A Module Federation runtime plugin in every browser build (createAppConfig in index.mjs).
// A page's chunks ask for their shared modules (MUI components, workspace packages) all at once:
// each lookup, and the chunk a lookup may load, is a step of a chain of promises, and the whole
// chain ran in one task of the browser (on /checkout 150–320 ms at Lighthouse's 4× slowdown, the
// page's largest blocking time). Waiting for the browser before each lookup splits the chain into
// a task per shared module: the same work, with input and paints between. A shared module's own
// code still runs when the module that imports it does.
export default function yieldBetweenSharesPlugin() {
  return {
    name: 'bimi-yield-between-shares',
    async beforeLoadShare(args) {
      await yieldToBrowser();
      return args;
    },
  };
}

/** Lets the browser run input and rendering first; the page's own work goes on right after. */
async function yieldToBrowser() {
  // A hidden tab paints nothing, and there a timer waits a second or more (Firefox and Safari,
  // without scheduler.yield): it goes on at once.
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
  const { scheduler } = globalThis;
  try {
    if (scheduler && typeof scheduler.yield === 'function') await scheduler.yield();
    else await new Promise((resolve) => setTimeout(resolve, 0));
  } catch {
    // A yield refused (an aborted task signal) only means the lookup goes on now.
  }
}
