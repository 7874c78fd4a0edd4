// Inline in the head of the shell's page (StartAfterPaintPlugin in index.mjs), so it listens before
// the body is parsed; the bff allows it by its hash in the page's content security policy. A page
// the bff rendered on the server shows its buttons before its JavaScript has started and hydrated
// it; React does not listen yet, so a click or a submit made then would do nothing. They are held
// instead, and the last one is made again once the page is live (`<html data-page-ready="true">`,
// shell/src/federation/PageReady.tsx) on the same element: hydration keeps the server's elements.
// Only the last: two impatient clicks on "Add a card" add one card. Links are left alone: they work
// without JavaScript. A page the server did not render (no `data-server-rendered` on #root) has
// nothing to click before its JavaScript runs: the listeners go once it is parsed. When the page's
// code will not come (a script of its own that failed to load) or not in time (GIVE_UP_MS after
// the document was parsed), clicks go to the page as it is again (a form's own action works
// without JavaScript) and nothing held is made again.
(function () {
  var GIVE_UP_MS = 20000;
  var html = document.documentElement;
  if (html.dataset.pageReady === 'true') return;
  var held = null;
  var giveUpTimer = 0;
  function serverRenderedRoot() {
    var root = document.getElementById('root');
    return root && root.dataset.serverRendered === 'true' ? root : null;
  }
  function hold(event) {
    var root = serverRenderedRoot();
    var target = event.target;
    if (!root || html.dataset.pageReady === 'true' || !(target instanceof Element) || !root.contains(target)) return;
    if (event.type === 'click' && target.closest('a[href]')) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held = event.type === 'submit' ? { form: target } : { element: target };
  }
  function stop() {
    watcher.disconnect();
    clearTimeout(giveUpTimer);
    document.removeEventListener('click', hold, true);
    document.removeEventListener('submit', hold, true);
    window.removeEventListener('error', scriptFailed, true);
  }
  function giveUp() {
    held = null;
    stop();
  }
  // The site's own scripts only: another origin's (a tag manager an extension blocks, a remote on
  // a CDN whose failure the page shows in its place) does not keep the page from going live.
  function scriptFailed(event) {
    var script = event.target;
    if (script instanceof HTMLScriptElement && script.src.indexOf(location.origin + '/') === 0) giveUp();
  }
  function replay() {
    if (html.dataset.pageReady !== 'true') return;
    stop();
    var last = held;
    held = null;
    // After React's own effects of the commit that marked the page live.
    if (last)
      setTimeout(function () {
        if (last.form && document.contains(last.form)) last.form.requestSubmit();
        else if (last.element && document.contains(last.element)) {
          // An icon's <svg> has no click(): an event of its own does what the click did.
          if (typeof last.element.click === 'function') last.element.click();
          else last.element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));
        }
      }, 0);
  }
  var watcher = new MutationObserver(replay);
  watcher.observe(html, { attributes: true, attributeFilter: ['data-page-ready'] });
  document.addEventListener('click', hold, true);
  document.addEventListener('submit', hold, true);
  window.addEventListener('error', scriptFailed, true);
  document.addEventListener('DOMContentLoaded', function () {
    if (!serverRenderedRoot()) stop();
    else giveUpTimer = setTimeout(giveUp, GIVE_UP_MS);
  });
})();
