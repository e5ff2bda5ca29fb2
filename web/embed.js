// gpusplit's embed script: a course page includes it with <script src="embed.js"> (no
// inline script, so it works under a strict Content-Security-Policy such as
// script-src 'self') and marks each widget frame with data-gpusplit:
//
//   <iframe data-gpusplit data-src="widget.html#model=8b" sandbox="allow-scripts" title="..."></iframe>
//
// data-src, not src: the frame then loads once, with its fragment, instead of loading the
// default view and being sent elsewhere while it loads. (A frame with src works too.)
// For each such frame it
// - starts the frame on its own data-src fragment (#model=8b above), so two widgets on one
//   page can open on two views;
// - with data-gpusplit-mirror, gives that frame the page's own URL fragment too (a link to
//   the page opens the view it names: #model=405b&gpus=16...), at load and whenever it
//   changes after (a link on the page to another view), and once the learner changes the
//   view, writes it back into the page's URL ({type: 'gpusplit:state', fragment}), so the
//   learner's link reproduces it. One frame only mirrors: the first so marked;
// - with data-gpusplit-theme="dark" or "light", forces that colour scheme;
// - with data-gpusplit-explorer="explorer.html", shows the widget's link to the explorer at
//   that path (relative to the widget; copy web/explorer.html there), which opens in a new
//   tab, so the widget stays in the page. The frame's sandbox must then allow that tab:
//   allow-popups and allow-popups-to-escape-sandbox (an explorer opened in a tab that kept the
//   frame's sandbox could not run); without both the link is not shown. Without the
//   attribute a framed widget shows no such link, since it cannot tell whether the page has one;
// - sizes the frame to the widget's height ({type: 'gpusplit:height', height}).
// It hears only its frames' own documents: a message must come from the frame's window and
// from the origin of its data-src, or "null" for a frame sandboxed without
// allow-same-origin (as the widget's should be), and have exactly one of those shapes.
(() => {
  const frames = [...document.querySelectorAll('iframe[data-gpusplit]')];
  const FRAGMENT = /^#[A-Za-z0-9=&.\-]{0,200}$/;
  // the widget's own check (web/src/widget.js EXPLORER): a relative path to an .html file
  const EXPLORER = /^(?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]{0,80}\.html$/;
  const mirrored = frames.find((f) => f.hasAttribute('data-gpusplit-mirror'));
  const origins = new Map();

  const exactly = (data, keys) =>
    typeof data === 'object' && data !== null && Object.getPrototypeOf(data) === Object.prototype &&
    Object.keys(data).sort().join() === keys;

  // The origin the frame's own document has: "null" when sandboxed without
  // allow-same-origin, else its URL's (a file: URL's is "null" in new URL() but "file://"
  // in a message, so neither is taken for it).
  function originOf(frame, url) {
    const sandbox = frame.getAttribute('sandbox');
    if (sandbox !== null && !sandbox.split(/\s+/).includes('allow-same-origin')) return 'null';
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : '';
  }

  // A sandboxed frame may open the explorer's tab only with both flags: the tab must leave
  // the sandbox to run the explorer's script.
  function popupsAllowed(frame) {
    const sandbox = frame.getAttribute('sandbox');
    if (sandbox === null) return true;
    const flags = sandbox.split(/\s+/);
    return flags.includes('allow-popups') && flags.includes('allow-popups-to-escape-sandbox');
  }

  // The frame's address: its own data-src, with the page's fragment over it if it mirrors.
  function srcOf(frame, base, own) {
    const params = new URLSearchParams(FRAGMENT.test('#' + own) ? own : '');
    if (frame === mirrored && FRAGMENT.test(location.hash)) {
      for (const [key, value] of new URLSearchParams(location.hash.slice(1))) params.set(key, value);
    }
    params.delete('explorer'); // only the host's attribute names it
    const theme = frame.dataset.gpusplitTheme;
    if (theme === 'dark' || theme === 'light') params.set('theme', theme);
    const explorer = frame.dataset.gpusplitExplorer || '';
    if (EXPLORER.test(explorer) && popupsAllowed(frame)) params.set('explorer', explorer);
    const fragment = params.toString();
    return fragment ? `${base}#${fragment}` : base;
  }

  const bases = new Map();
  for (const frame of frames) {
    const [base, own = ''] = (frame.dataset.src || frame.getAttribute('src') || '').split('#');
    if (!base) continue;
    let url;
    try {
      url = new URL(base, location.href);
    } catch {
      continue;
    }
    origins.set(frame, originOf(frame, url));
    bases.set(frame, [base, own]);
    frame.src = srcOf(frame, base, own);
  }

  // The fragment this script last read from the page or wrote into it. A link on the page
  // sets the page's fragment at once and sends its hashchange after, in a task of its own; a
  // frame's view arriving in between would be written over the link's. So a view that finds
  // the page holding another fragment waits OUTSIDE_WAIT_MS: if the hashchange comes, the
  // link's fragment wins and the frame takes it; if not (a page that set its own fragment by
  // history.replaceState, which sends no event), the view is written as before.
  const OUTSIDE_WAIT_MS = 100;
  let known = location.hash;
  let waiting = 0;
  function writeView(hash) {
    known = hash;
    if (location.hash === hash) return;
    try {
      history.replaceState(history.state, '', hash);
    } catch { /* a page that cannot change its URL keeps the view in the frame only */ }
  }

  // The page's fragment changed after load (a link on the page, or location.hash = ...): the
  // mirrored frame takes it. Only the fragment of its address changes, so the widget hears a
  // hashchange and is not loaded again.
  window.addEventListener('hashchange', () => {
    clearTimeout(waiting);
    known = location.hash;
    if (!mirrored || !bases.has(mirrored) || !FRAGMENT.test(location.hash)) return;
    const next = srcOf(mirrored, ...bases.get(mirrored));
    if (mirrored.src !== new URL(next, location.href).href) mirrored.src = next;
  });

  window.addEventListener('message', (event) => {
    const frame = frames.find((f) => f.contentWindow === event.source);
    if (!frame || !origins.get(frame) || event.origin !== origins.get(frame)) return;
    const data = event.data;
    if (exactly(data, 'height,type') && data.type === 'gpusplit:height' && typeof data.height === 'number' &&
        Number.isFinite(data.height) && data.height >= 1 && data.height <= 20000) {
      frame.style.height = `${Math.ceil(data.height)}px`;
    } else if (exactly(data, 'fragment,type') && data.type === 'gpusplit:state' && typeof data.fragment === 'string' &&
               FRAGMENT.test(data.fragment) && frame === mirrored) {
      const params = new URLSearchParams(data.fragment.slice(1));
      params.delete('theme'); // the page's own choice, not the learner's
      params.delete('explorer');
      const hash = '#' + params.toString();
      clearTimeout(waiting);
      if (location.hash === known) writeView(hash);
      else waiting = setTimeout(writeView, OUTSIDE_WAIT_MS, hash);
    }
  });
})();
