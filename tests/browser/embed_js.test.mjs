// web/embed.js on a course page with a strict Content-Security-Policy (script-src 'self',
// no inline script): the frame takes the widget's height, the page's fragment reaches
// the widget, and the learner's view comes back into the page's URL. And a forced theme.
import * as assert from 'uvu/assert';
import { browserSuite, caseOf, expected, fileUrl, openPage, ready, shown } from './harness.mjs';

const embed = browserSuite('embed.js under a strict CSP', { server: true });

async function frameOf(page) {
  const frame = await (await page.waitForSelector('#gpusplit')).contentFrame();
  await ready(frame);
  return frame;
}

embed('the page\'s fragment opens that view in the frame, which grows to the widget\'s height', async (ctx) => {
  const view = '#model=405b&gpus=16&link=slow&split=groups&words=64';
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-js-demo.html') + view, { figures: false });
  const frame = await frameOf(page);
  assert.equal(await shown(frame), expected(caseOf(ctx.fixture, { model: '405b', gpus: 16, link: 'slow', split: 'groups', words: 64 })));
  await page.waitForFunction(() => /px$/.test(document.getElementById('gpusplit').style.height));
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const outer = await page.evaluate(() => document.getElementById('gpusplit').clientHeight);
  const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.is(outer, inner);
  assert.ok(outer > 640, `the frame stayed at ${outer} px`);
  assert.equal(seen.problems, []);
});

embed('with data-gpusplit-mirror, a learner\'s change is written into the page\'s URL, so a link reproduces it', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-js-demo.html'), { figures: false });
  const frame = await frameOf(page);
  await frame.click('label:has(> input[name="model"][value="8b"])');
  await frame.click('label:has(> input[name="link"][value="slow"])');
  await page.waitForFunction(() => location.hash.includes('model=8b') && location.hash.includes('link=slow'));
  const link = await page.evaluate(() => location.href);
  const again = await openPage(ctx, link, { figures: false });
  const frame2 = await frameOf(again.page);
  assert.equal((await shown(frame2)).setting, { model: '8b', gpus: '4', link: 'slow', split: 'slices', words: '1' });
  assert.equal(seen.problems, []);
  assert.equal(again.seen.problems, []);
});

// A link on the page sets its fragment at once and sends the hashchange in a task after;
// the frame's view, written 300 ms after the learner's last change, can arrive in between.
// Here the fragment is set as the link sets it (replaceState sends no event) and the
// hashchange is sent just after the view's message: the link's fragment must win.
embed('a fragment the page takes while the frame\'s view is on its way wins, and the frame takes it', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-js-demo.html'), { figures: false });
  const frame = await frameOf(page);
  await page.evaluate(() => window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'gpusplit:state' && !window.viewArrived) {
      window.viewArrived = true;
      setTimeout(() => window.dispatchEvent(new HashChangeEvent('hashchange')), 0);
    }
  }));
  await frame.click('label:has(> input[name="link"][value="slow"])');
  await page.evaluate(() => history.replaceState(null, '', '#model=8b'));
  await page.waitForFunction(() => window.viewArrived === true);
  await page.evaluate(() => new Promise((done) => setTimeout(done, 250)));
  assert.match(await page.evaluate(() => location.hash), /model=8b/, 'the frame\'s view was written over the link\'s fragment');
  await frame.waitForFunction(() => document.getElementById('controls').elements.model.value === '8b');
  assert.equal(seen.problems, []);
});

// A page that sets its own fragment by history.replaceState sends no hashchange: the
// learner's next view is still written into its URL (after the wait above).
embed('a fragment the page set by replaceState alone does not stop the learner\'s view from reaching the URL', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-js-demo.html'), { figures: false });
  const frame = await frameOf(page);
  await page.evaluate(() => history.replaceState(null, '', '#section-2'));
  await frame.click('label:has(> input[name="link"][value="slow"])');
  await page.waitForFunction(() => location.hash.includes('link=slow'));
  await frame.click('label:has(> input[name="model"][value="8b"])');
  await page.waitForFunction(() => location.hash.includes('model=8b') && location.hash.includes('link=slow'));
  assert.equal(seen.problems, []);
});

embed('a message of another shape, or from another window, changes nothing', async (ctx) => {
  const { page } = await openPage(ctx, ctx.server.url('embed-js-demo.html'), { figures: false });
  await frameOf(page);
  const before = await page.evaluate(() => location.hash);
  await page.evaluate(() => {
    window.postMessage({ type: 'gpusplit:state', fragment: '#model=8b' }, '*'); // not from the frame
    window.postMessage({ type: 'gpusplit:height', height: 5 }, '*');
  });
  await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
  assert.is(await page.evaluate(() => location.hash), before);
});

embed.run();

const theme = browserSuite('a forced colour scheme', { contextOptions: { colorScheme: 'light' } });

theme('theme=dark in the fragment draws the widget dark on a light system, and keeps it in the fragment', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#theme=dark'));
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await (await openPage(ctx, fileUrl('widget.html'))).page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.is(light, 'rgb(255, 255, 255)');
  assert.is(dark, 'rgb(22, 27, 34)');
  await page.click('label:has(> input[name="model"][value="8b"])');
  assert.match(await page.evaluate(() => location.hash), /theme=dark/);
  assert.equal(seen.problems, []);
});

theme.run();
