// An async boundary: the shared singletons (react, the router, MUI…) are negotiated with
// the federation runtime before any of the shell's code that uses them runs.
// From a task of its own: a request made while main.js's top level runs makes a browser that
// records where requests come from (DevTools, Lighthouse) re-read all of main.js for its stack
// (V8's CollectSourcePositions, about 50 ms on a fast machine).
// Named: the page's start code preloads it beside main.js (StartAfterPaintPlugin in packages/webpack-config).
setTimeout(() => void import(/* webpackChunkName: "bootstrap" */ './bootstrap'), 0);
