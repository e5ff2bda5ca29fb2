// web/embed-demo.html, a course page that embeds the widget in a sandboxed frame, and the
// widget's URL fragment, alone and in that frame.
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSuite, caseOf, DEFAULTS, expected, fileUrl, fragmentOf, openPage, ready, requested, shown, WEB } from './harness.mjs';

const demoHtml = readFileSync(join(WEB, 'embed-demo.html'), 'utf8');
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// The frame's window, once the widget inside has drawn its figures.
async function widgetFrame(page) {
  const frame = await (await page.waitForSelector('#gpusplit')).contentFrame();
  await ready(frame);
  return frame;
}

// Waits until the frame has taken the widget's height, and gives both.
async function heights(page, frame) {
  await page.waitForFunction(() => document.getElementById('gpusplit').style.height !== '');
  // let a last resize message land
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const outer = await page.evaluate(() => {
    const f = document.getElementById('gpusplit');
    return { client: f.clientHeight, style: f.style.height };
  });
  const inner = await frame.evaluate(() => ({
    content: Math.ceil(document.documentElement.getBoundingClientRect().height),
    scroll: document.documentElement.scrollHeight,
    view: document.documentElement.clientHeight,
    scrollsX: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  }));
  return { outer, inner };
}

const demo = browserSuite('the embedding demo', { server: true });

demo('its CSP allows nothing but its own frame and, by hash, its inline style and script', () => {
  const csp = demoHtml.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
  assert.ok(csp, 'no CSP meta tag');
  const rules = csp[1].split(';').map((r) => r.trim());
  const style = demoHtml.match(/<style>([\s\S]*?)<\/style>/)[1];
  const script = demoHtml.match(/<script>([\s\S]*?)<\/script>/)[1];
  assert.equal(rules, ["default-src 'none'", "frame-src 'self'", `script-src ${sha256(script)}`, `style-src ${sha256(style)}`,
    "base-uri 'none'", "form-action 'none'"]);
  assert.is(demoHtml.match(/<script/g).length, 1);
  assert.is(demoHtml.match(/<iframe/g).length, 1);
  assert.not.ok(/https?:\/\//.test(demoHtml), 'the demo names a URL');
});

demo('the widget runs in a frame sandboxed to allow-scripts only, and shows its default figures', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-demo.html'), { figures: false });
  assert.is(await page.getAttribute('#gpusplit', 'sandbox'), 'allow-scripts');
  const widget = page.frameLocator('#gpusplit');
  await widget.locator('#memory', { hasNotText: '…' }).waitFor();
  const want = expected(caseOf(ctx.fixture, DEFAULTS));
  assert.is(await widget.locator('#memory').textContent(), want.memory);
  assert.is(await widget.locator('#time').textContent(), want.time);
  assert.is(await widget.locator('#waiting').textContent(), want.waiting);
  // the frame's origin is opaque: it cannot reach the page
  const frame = await widgetFrame(page);
  assert.is(await frame.evaluate(() => origin), 'null');
  assert.is(await frame.evaluate(() => { try { return parent.document ? 'reached' : 'no'; } catch { return 'blocked'; } }), 'blocked');
  assert.equal(seen.problems, []);
});

demo('it asks for nothing beyond itself and the widget', async (ctx) => {
  const before = ctx.server.requests.length;
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-demo.html'), { figures: false });
  const frame = await widgetFrame(page);
  await frame.click('label:has(> input[value="405b"])');
  assert.equal(requested(seen), [ctx.server.url('embed-demo.html'), ctx.server.url('widget.html')]);
  assert.equal(ctx.server.requests.slice(before), ['/embed-demo.html', '/widget.html']);
  assert.equal(seen.problems, []);
});

demo('opened from a file:// URL it also shows the widget, and asks for nothing else', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('embed-demo.html'), { figures: false });
  const frame = await widgetFrame(page);
  assert.equal(await shown(frame), expected(caseOf(ctx.fixture, DEFAULTS)));
  assert.equal(requested(seen), [fileUrl('embed-demo.html'), fileUrl('widget.html')]);
  assert.equal(seen.problems, []);
});

demo('the frame is exactly as tall as the widget, with no scrollbar inside, and follows it as it grows and shrinks', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-demo.html'), { figures: false });
  const frame = await widgetFrame(page);
  const seenHeights = [];
  for (const width of [1280, 360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForFunction((w) => document.documentElement.clientWidth === w, width);
    // the widget reports its new height by message; give it a moment to land
    let h = await heights(page, frame);
    for (let i = 0; i < 50 && h.outer.client !== h.inner.content; i++) {
      await page.waitForTimeout(20);
      h = await heights(page, frame);
    }
    assert.is(h.outer.client, h.inner.content, `at ${width} px`);
    assert.ok(h.inner.scroll <= h.inner.view, `at ${width} px the frame scrolls inside: ${h.inner.scroll} > ${h.inner.view}`);
    assert.not.ok(h.inner.scrollsX, `at ${width} px the frame scrolls sideways`);
    seenHeights.push(h.outer.client);
  }
  assert.ok(seenHeights[1] > seenHeights[0], `narrower is taller: ${seenHeights}`);
  assert.is(seenHeights[2], seenHeights[0], `it shrinks back: ${seenHeights}`);
  assert.equal(seen.problems, []);
});

demo('the page ignores height messages from any other window, and any not of exactly the widget\'s shape', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-demo.html'), { figures: false });
  const frame = await widgetFrame(page);
  await heights(page, frame);
  // record every height the page gives the frame from now on
  await page.evaluate(() => {
    window.__heights = [];
    const f = document.getElementById('gpusplit');
    new MutationObserver(() => window.__heights.push(f.style.height)).observe(f, { attributes: true, attributeFilter: ['style'] });
  });
  // the right shape, from the wrong window
  await page.evaluate(() => window.postMessage({ type: 'gpusplit:height', height: 321 }, '*'));
  // the right window, the wrong shape
  await frame.evaluate(() => {
    for (const data of [
      { type: 'gpusplit:height', height: 1e9 }, { type: 'gpusplit:height', height: NaN },
      { type: 'gpusplit:height', height: Infinity }, { type: 'gpusplit:height', height: -5 },
      { type: 'gpusplit:height', height: '400' }, { type: 'gpusplit:height', height: 400, extra: 1 },
      { type: 'gpusplit:size', height: 400 }, { height: 400 }, null, 'gpusplit:height', [400],
    ]) parent.postMessage(data, '*');
    // then one good message, so the test knows the others have been handled
    parent.postMessage({ type: 'gpusplit:height', height: 654.2 }, '*');
  });
  await page.waitForFunction(() => window.__heights.length > 0);
  assert.equal(await page.evaluate(() => window.__heights), ['655px']);
  assert.equal(seen.problems, []);
});

demo.run();

const fragment = browserSuite('the URL fragment', { server: true });
const asked = { model: '405b', gpus: '16', link: 'slow', split: 'groups', words: '64' };
const askedHash = '#model=405b&gpus=16&link=slow&split=groups&words=64';
const hashSetting = (hash) => Object.fromEntries(new URLSearchParams(hash.slice(1)));

for (const where of ['file', 'server']) {
  fragment(`widget.html${askedHash} (${where}) opens on that setting, follows the controls, and a reload shows the same view`, async (ctx) => {
    const url = where === 'file' ? fileUrl('widget.html', askedHash) : ctx.server.url('widget.html', askedHash);
    const { page, seen } = await openPage(ctx, url);
    assert.equal(await shown(page), expected(caseOf(ctx.fixture, asked)));
    await page.click('label:has(> input[name="gpus"][value="8"])');
    const changed = { ...asked, gpus: '8' };
    assert.equal(hashSetting(await fragmentOf(page)), changed);
    assert.equal(await shown(page), expected(caseOf(ctx.fixture, changed)));
    await page.reload();
    await ready(page);
    assert.equal(await shown(page), expected(caseOf(ctx.fixture, changed)));
    assert.equal(seen.problems, []);
  });
}

fragment('in the sandboxed frame, too, the fragment opens the setting, follows the controls and survives a reload', async (ctx) => {
  const { page, seen } = await openPage(ctx, ctx.server.url('embed-demo.html'), { figures: false });
  let frame = await widgetFrame(page);
  await frame.goto(ctx.server.url('widget.html', askedHash));
  await ready(frame);
  assert.is(await frame.evaluate(() => origin), 'null', 'the frame lost its sandbox');
  assert.equal(await shown(frame), expected(caseOf(ctx.fixture, asked)));
  await frame.click('label:has(> input[name="words"][value="16"])');
  const changed = { ...asked, words: '16' };
  assert.equal(hashSetting(await fragmentOf(frame)), changed);
  await frame.evaluate(() => location.reload());
  frame = await widgetFrame(page);
  await frame.waitForLoadState('load');
  await ready(frame);
  assert.equal(await shown(frame), expected(caseOf(ctx.fixture, changed)));
  assert.is(await page.getAttribute('#gpusplit', 'sandbox'), 'allow-scripts');
  assert.equal(seen.problems, []);
});

fragment('unknown values (#model=bogus&gpus=3) fall back to the defaults, with no console error', async (ctx) => {
  for (const url of [fileUrl('widget.html', '#model=bogus&gpus=3'), ctx.server.url('widget.html', '#model=bogus&gpus=3&link=&split=slices&words=1e3&extra=1')]) {
    const { page, seen } = await openPage(ctx, url);
    assert.equal(await shown(page), expected(caseOf(ctx.fixture, DEFAULTS)), url);
    assert.equal(hashSetting(await fragmentOf(page)), DEFAULTS);
    // a bad fragment typed while the page is open falls back too
    await page.evaluate(() => { location.hash = '#model=70b&gpus=8&words=%3Cb%3E'; });
    await page.waitForFunction(() => document.getElementById('controls').elements.gpus.value === '8');
    assert.equal(await shown(page), expected(caseOf(ctx.fixture, { ...DEFAULTS, gpus: '8' })));
    assert.equal(seen.problems, []);
    await page.close();
  }
});

fragment.run();
