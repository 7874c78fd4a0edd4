// Inline at the end of the shell page's body (StartAfterPaintPlugin in index.mjs), after #root; the
// bff allows it by its hash in the page's content security policy. It starts the shell once the
// page has been painted: the entry's scripts (`data-scripts`, in order) and a preload of the
// shell's app chunk (`data-preloads`), one element a task. Its text is the same for every build;
// the files are in its attributes.
(function () {
  var me = document.currentScript;
  var words = function (name) {
    var value = me && me.getAttribute(name);
    return value ? value.split(' ') : [];
  };
  var steps = words('data-preloads')
    .map(function (url) {
      var link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'script';
      link.href = url;
      return link;
    })
    // The page's first read of localStorage opens the origin's storage, a synchronous call to the
    // browser (2-5 ms on a 2-core host): in a task of its own, before the federation runtime's
    // debug switch and the cart read it in main.js's and hydration's tasks.
    .concat(function () {
      try {
        localStorage.getItem('');
      } catch (error) {
        // No storage (a privacy mode): nothing to open.
      }
    })
    .concat(
      // Scripts with async=false run in the order added.
      words('data-scripts').map(function (url) {
        var script = document.createElement('script');
        script.src = url;
        script.async = false;
        return script;
      }),
    );

  // One step a task: the five in one task took 9 ms on a 2-core host, where the browser's other
  // threads compete for the cores (at the calibrated phone's slowdown, 120 ms of a task that
  // Lighthouse links to the scripts' requests). In a hidden tab, where a timer waits a second or
  // more and nothing is painted, the rest at once.
  function next() {
    var step = steps.shift();
    if (!step) return;
    if (typeof step === 'function') step();
    else document.head.appendChild(step);
    if (document.visibilityState === 'visible') setTimeout(next, 0);
    else next();
  }

  var started = false;
  function start() {
    if (started) return;
    started = true;
    if (document.visibilityState === 'visible') setTimeout(next, 0);
    else next();
  }

  var root = document.getElementById('root');
  // A hidden tab, and a page the server did not render (a page not found, a render that failed),
  // which has nothing to paint before the shell runs: at once.
  if (document.visibilityState !== 'visible' || !root || root.dataset.serverRendered !== 'true') {
    started = true;
    next();
    return;
  }
  // The browser reports the first paint once it is on screen: the scripts start then.
  var Observer = window.PerformanceObserver;
  var paintTiming = !!(Observer && Observer.supportedEntryTypes && Observer.supportedEntryTypes.indexOf('paint') >= 0);
  if (paintTiming) new Observer(start).observe({ type: 'paint', buffered: true });
  // A tab hidden before its first paint paints nothing (and runs no animation frame): at once then.
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState !== 'visible') start();
  });
  // Without paint timing, the task after the second frame; with it, that frame at the latest a second on.
  requestAnimationFrame(function () {
    requestAnimationFrame(function () {
      if (paintTiming) setTimeout(start, 1000);
      else start();
    });
  });
})();
