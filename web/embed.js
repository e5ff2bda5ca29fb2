// gpusplit's embed script: a course page includes it with <script src="embed.js"> (no
// inline script, so it works under a strict Content-Security-Policy such as
// script-src 'self') and marks each widget frame with data-gpusplit:
//
//   <iframe data-gpusplit data-src="widget.html" sandbox="allow-scripts" title="..."></iframe>
//
// data-src, not src: the frame then loads once, with the fragment, instead of loading the
// default view and being sent elsewhere while it loads. (A frame with src works too.)
// For each such frame it
// - passes the page's own URL fragment into the frame, so a link to the page opens the
//   view it names (#model=405b&gpus=16...);
// - with data-gpusplit-theme="dark" or "light", forces that colour scheme;
// - sizes the frame to the widget's height ({type: 'gpusplit:height', height});
// - with data-gpusplit-mirror, writes the widget's state back into the page's URL
//   ({type: 'gpusplit:state', fragment}), so a learner's link reproduces their view.
// It hears only its frames' own windows, and only messages of exactly those shapes.
(() => {
  const frames = [...document.querySelectorAll('iframe[data-gpusplit]')];
  const FRAGMENT = /^#[A-Za-z0-9=&.\-]{0,200}$/;

  const exactly = (data, keys) =>
    typeof data === 'object' && data !== null && Object.getPrototypeOf(data) === Object.prototype &&
    Object.keys(data).sort().join() === keys;

  for (const frame of frames) {
    const params = new URLSearchParams(FRAGMENT.test(location.hash) ? location.hash.slice(1) : '');
    const theme = frame.dataset.gpusplitTheme;
    if (theme === 'dark' || theme === 'light') params.set('theme', theme);
    const fragment = params.toString();
    const base = (frame.dataset.src || frame.getAttribute('src') || '').split('#')[0];
    if (base) frame.src = fragment ? `${base}#${fragment}` : base;
  }

  window.addEventListener('message', (event) => {
    const frame = frames.find((f) => f.contentWindow === event.source);
    const data = event.data;
    if (!frame) return;
    if (exactly(data, 'height,type') && data.type === 'gpusplit:height' && typeof data.height === 'number' &&
        Number.isFinite(data.height) && data.height >= 1 && data.height <= 20000) {
      frame.style.height = `${Math.ceil(data.height)}px`;
    } else if (exactly(data, 'fragment,type') && data.type === 'gpusplit:state' && typeof data.fragment === 'string' &&
               FRAGMENT.test(data.fragment) && frame.hasAttribute('data-gpusplit-mirror') && location.hash !== data.fragment) {
      const params = new URLSearchParams(data.fragment.slice(1));
      params.delete('theme'); // the page's own choice, not the learner's
      try {
        history.replaceState(history.state, '', '#' + params.toString());
      } catch { /* a page that cannot change its URL keeps the view in the frame only */ }
    }
  });
})();
