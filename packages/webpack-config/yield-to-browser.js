// A Module Federation runtime plugin in every browser build (createAppConfig in index.mjs): the
// runtime's chains of promises are split into tasks, so that input and paints come between.
//
// - Before each shared module's lookup. A page's chunks ask for their shared modules (MUI
//   components, workspace packages) all at once: each lookup, and the chunk a lookup may load, is a
//   step of a chain of promises, and the whole chain ran in one task of the browser (on /checkout
//   150–320 ms at Lighthouse's 4× slowdown, the page's largest blocking time). A shared module's
//   own code still runs when the module that imports it does.
// - Before a remote's exposed module runs. Its code (a routes module with its pages) ran in the
//   task in which the last of its files arrived, a task Lighthouse links to that file's request: on
//   the account pages the routes module with the remote's copy of Zod, 160–210 ms of the
//   dashboard's simulated long tasks. Now in a task of its own. The host's hook: it holds for a
//   remote built before the wrapper below, too.
// - Before the modules of an app's own lazy chunks run (`import()`: webpack's `__webpack_require__.e`),
//   for the same reason: an account page, the cart's checkout or a tool's result view ran in the
//   task of its last file's arrival.
// - Before and after a remote's container starts (its `init`: registering its shared modules and
//   reading the share scope), which ran in the task of its remoteEntry.js's load event with the
//   lookups before it: 17–30 ms on this 2-core host, in a task Lighthouse links to that file.
export default function yieldToBrowserPlugin() {
  yieldAfterChunksArrive();
  return {
    name: 'bimi-yield-to-browser',
    beforeLoadShare: afterATurn,
    beforeExecuteFactory: afterATurn,
    beforeInitContainer: afterATurn,
    initContainer: afterATurn,
  };
}

/**
 * Every `import()` of the app whose runtime holds this plugin goes on in a task after its chunks
 * arrived. Once per runtime; nothing outside a webpack build (the tests).
 */
function yieldAfterChunksArrive() {
  if (typeof __webpack_require__ === 'undefined' || typeof __webpack_require__.e !== 'function') return;
  const ensureChunk = __webpack_require__.e;
  if (ensureChunk.yieldsToBrowser) return;
  const yielding = (chunkId) => ensureChunk(chunkId).then((value) => yieldToBrowser().then(() => value));
  yielding.yieldsToBrowser = true;
  __webpack_require__.e = yielding;
}

/** A hook that hands its arguments on unchanged, in a task after the browser had its turn. */
async function afterATurn(args) {
  await yieldToBrowser();
  return args;
}

/**
 * Lets the browser run input and rendering first; the page's own work goes on right after. The
 * runtime of RunInSlicesPlugin (run-in-slices.js) writes the same steps into each build: change both.
 */
async function yieldToBrowser() {
  // A hidden tab paints nothing, and there a timer waits a second or more (Firefox and Safari,
  // without scheduler.yield): it goes on at once.
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
  const { scheduler } = globalThis;
  try {
    if (scheduler && typeof scheduler.yield === 'function') await scheduler.yield();
    else await new Promise((resolve) => setTimeout(resolve, 0));
  } catch {
    // A yield refused (an aborted task signal) only means the work goes on now.
  }
}
