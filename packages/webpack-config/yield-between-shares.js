// A Module Federation runtime plugin in every browser build (createAppConfig in index.mjs).
// A page's chunks ask for their shared modules (MUI components, workspace packages) all at once:
// each answer loads a chunk and runs it, and every step of that chain is a promise, so the whole
// chain ran in one task of the browser (on /checkout 150–320 ms at Lighthouse's 4× slowdown, the
// page's largest blocking time). Waiting for the browser before each shared module is looked up
// splits the chain into a task per module: the same work, with input and paints between.
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
function yieldToBrowser() {
  const { scheduler } = globalThis;
  if (scheduler && typeof scheduler.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
