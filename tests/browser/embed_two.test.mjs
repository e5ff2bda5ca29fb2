// web/embed-two-demo.html: two widgets on one strict-CSP page (script-src 'self'), each
// opening on its own data-src fragment; the page's fragment reaching the mirrored frame
// only, and its URL changing only after the learner's first change; no link in either frame
// that leads to a missing page. Then issue 18's foreign page: a page of another origin
// placed in a data-gpusplit frame is not heard by web/embed.js.
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSuite, caseOf, expected, FRAGMENT_DELAY_MS, fragmentOf, openPage, ready, shown, WEB } from './harness.mjs';

const two = browserSuite('two widgets on one page under a strict CSP', { server: true });

async function frameOf(page, id) {
  const frame = await (await page.waitForSelector(`#${id}`)).contentFrame();
  await ready(frame);
  return frame;
}

// Lets every message and timer the widgets queued land in the page, the fragment's write
// (and its mirror) among them.
const settle = (page) => page.evaluate((delay) => new Promise((done) => setTimeout(done, delay)), FRAGMENT_DELAY_MS + 200);

// Scrolls a frame into view and waits for embed.js to size it. Chromium does not render a
// cross-origin frame below the fold, so its height message comes only once it shows: a
// click on such a frame would land while the frame grows under it, and be lost.
async function inView(page, id) {
  await page.evaluate((frameId) => document.getElementById(frameId).scrollIntoView(), id);
  await page.waitForFunction((frameId) => document.getElementById(frameId).style.height !== '', id);
  await settle(page);
}

// Every link the frame shows (not hidden), with the status the server gives its address.
async function shownLinks(frame) {
  const links = await frame.evaluate(() => [...document.querySelectorAll('a[href]')]
    .filter((a) => a.getClientRects().length > 0).map((a) => a.href));
  const out = [];
  for (const href of links) out.push({ href: href.split('#')[0], status: (await fetch(href, { method: 'HEAD' })).status });
  return out;
}

const FIRST = { model: '8b', gpus: '8', link: 'slow', split: 'slices', words: '1' };
const SECOND = { model: '405b', gpus: '16', link: 'fast', split: 'groups', words: '1' };

two('each frame opens on its own data-src view, and loading the page leaves its URL alone', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-two-demo.html'), { figures: false });
  const first = await frameOf(page, 'first');
  const second = await frameOf(page, 'second');
  assert.equal(await shown(first), expected(caseOf(ctx.fixture, FIRST)));
  assert.equal(await shown(second), expected(caseOf(ctx.fixture, SECOND)));
  await settle(page);
  assert.is(await page.evaluate(() => location.href), ctx.server.url('embed-two-demo.html'));
  assert.equal(seen.problems, []);
});

two('the page\'s fragment goes to the mirrored frame only, over its own view', async (ctx) => {
  const url = ctx.server.url('embed-two-demo.html', '#model=70b&gpus=2');
  const { page, seen } = await openPage(ctx, url, { figures: false });
  const first = await frameOf(page, 'first');
  const second = await frameOf(page, 'second');
  // the fields the page's fragment names replace the frame's own; the rest stay its own
  assert.equal(await shown(first), expected(caseOf(ctx.fixture, { ...FIRST, model: '70b', gpus: '2' })));
  assert.equal(await shown(second), expected(caseOf(ctx.fixture, SECOND)));
  await settle(page);
  assert.is(await page.evaluate(() => location.href), url, 'the page\'s URL changed before any change by the learner');
  assert.equal(seen.problems, []);
});

two('mirroring starts with the learner\'s first change in the mirrored frame, and the other frame never writes the URL', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-two-demo.html'), { figures: false });
  const first = await frameOf(page, 'first');
  const second = await frameOf(page, 'second');
  await inView(page, 'second');
  await second.click('label:has(> input[name="words"][value="64"])');
  await settle(page);
  assert.is(await page.evaluate(() => location.hash), '', 'the unmirrored frame wrote the page\'s URL');
  await first.click('label:has(> input[name="split"][value="groups"])');
  await page.waitForFunction(() => location.hash !== '');
  const hash = Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)));
  assert.equal(hash, { ...FIRST, split: 'groups' });
  assert.equal(seen.problems, []);
});

two('the framed widget shows the explorer link only where the page names it, and no link that 404s', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-two-demo.html'), { figures: false });
  const first = await frameOf(page, 'first');
  const second = await frameOf(page, 'second');
  assert.not.ok(await first.locator('#explore').isVisible(), 'a frame with no data-gpusplit-explorer shows the link');
  assert.equal(await shownLinks(first), []);
  assert.ok(await second.locator('#explore').isVisible(), 'the frame named the explorer but shows no link');
  assert.equal(await shownLinks(second), [{ href: ctx.server.url('explorer.html'), status: 200 }]);
  // the link carries the frame's view, and a change moves it (clicked once the frame shows
  // at its size: inView)
  await inView(page, 'second');
  await second.click('label:has(> input[name="gpus"][value="8"])');
  assert.match(await second.getAttribute('#explore', 'href'), /^explorer\.html#model=405b&.*split=groups.*&n=8&budget=\d+$/);
  // a reload of the frame keeps the name (the widget keeps it in its own fragment, written
  // in a task after the figures: the reload waits for it)
  await fragmentOf(second);
  await second.evaluate(() => location.reload());
  const again = await frameOf(page, 'second');
  assert.ok(await again.locator('#explore').isVisible(), 'the link went on a reload');
  assert.equal(seen.problems, []);
});

two('a framed widget does not take the explorer\'s name from its fragment unless it is a relative .html path', async (ctx) => {
  const { page } = await openPage(ctx, ctx.server.url('embed-two-demo.html'), { figures: false });
  const first = await frameOf(page, 'first');
  for (const bad of ['javascript:alert(1)//.html', '//evil.example/x.html', '/explorer.html', 'explorer.htm', 'https://evil.example/explorer.html']) {
    await first.evaluate((name) => { location.hash = '#' + new URLSearchParams({ model: '8b', explorer: name }); }, bad);
    await first.waitForFunction(() => document.getElementById('controls').elements.gpus.value === '4');
    assert.not.ok(await first.locator('#explore').isVisible(), bad);
    await first.evaluate(() => { location.hash = '#gpus=8'; });
    await first.waitForFunction(() => document.getElementById('controls').elements.gpus.value === '8');
  }
});

two.run();

// Issue 18: a frame marked data-gpusplit that holds a page of another origin. The host page
// with web/embed.js, the widget and the foreign page are three origins, http://host.test,
// http://widget.test and http://foreign.test, each served by the browser's own request
// routing (Chromium would not let a page of a public name load from 127.0.0.1). The frame
// is not sandboxed, so the widget's own messages come from its data-src's origin, and
// those are heard; the foreign page's, from the same frame window, are not.
const foreign = browserSuite('embed.js and a page of another origin in its frame');

const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body>
<iframe data-gpusplit data-gpusplit-mirror id="gpusplit" data-src="http://widget.test/widget.html" title="widget" width="100%" height="200"></iframe>
<script src="embed.js"></script></body></html>`;

const FOREIGN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>foreign</title></head><body><script>
parent.postMessage({ type: 'gpusplit:height', height: 1234 }, '*');
parent.postMessage({ type: 'gpusplit:state', fragment: '#model=405b&gpus=64' }, '*');
parent.postMessage({ type: 'gpusplit:height', height: 4321 }, '*');
</script></body></html>`;

foreign('the widget\'s messages are heard, and a foreign page placed in the frame is not', async (ctx) => {
  const context = ctx.browser.context;
  const file = (name) => readFileSync(join(WEB, name));
  await context.route('http://host.test/**', (route) => route.request().url().endsWith('/embed.js')
    ? route.fulfill({ contentType: 'text/javascript', body: file('embed.js') })
    : route.fulfill({ contentType: 'text/html', body: HOST_PAGE }));
  await context.route('http://widget.test/**', (route) => route.fulfill({ contentType: 'text/html', body: file('widget.html') }));
  await context.route('http://foreign.test/**', (route) => route.fulfill({ contentType: 'text/html', body: FOREIGN_PAGE }));
  try {
    const { page, seen } = await openPage(ctx, 'http://host.test/lesson.html', { figures: false });
    const frame = await frameOf(page, 'gpusplit');
    // the widget itself is heard: the frame takes its height, and a change reaches the URL
    await page.waitForFunction(() => /px$/.test(document.getElementById('gpusplit').style.height));
    await frame.click('label:has(> input[name="model"][value="8b"])');
    await page.waitForFunction(() => location.hash.includes('model=8b'));
    const before = await page.evaluate(() => ({ hash: location.hash, height: document.getElementById('gpusplit').style.height }));
    assert.not.equal(before.height, '1234px');
    // the test's own listener, added after embed.js's, sees each message after embed.js has
    await page.evaluate(() => {
      window.__foreign = [];
      addEventListener('message', (event) => { if (event.origin === 'http://foreign.test') window.__foreign.push(event.data.type); });
    });
    await frame.goto('http://foreign.test/page.html');
    await page.waitForFunction(() => window.__foreign.length === 3);
    const after = await page.evaluate(() => ({ hash: location.hash, height: document.getElementById('gpusplit').style.height }));
    assert.equal(after, before);
    assert.equal(seen.problems, []);
  } finally {
    await context.unrouteAll();
  }
});

foreign.run();
