// Frames that behave (issue 31): a framed widget's explorer link opens a tab of its own
// and the widget stays; without the sandbox's popup flags the link is not shown; two frames
// below the fold are sized within a second of load; a change of the host's fragment after
// load reaches the mirrored frame. Pages are served from the static server's origin, the
// made-up ones through Playwright's routing, so embed.js and the widget load as on a host.
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSuite, caseOf, DEFAULTS, expected, ready, ROOT, shown, watch } from './harness.mjs';

const frames = browserSuite('frames that behave', { server: true });

// A course page served at NAME on the test server's origin: the given frames after `before`,
// under a strict CSP for scripts (script-src 'self'; its own inline style attributes
// allowed, for its layout), embedded with embed.js.
async function hostPage(ctx, name, { before = '', frames: markup }) {
  const page = await ctx.browser.context.newPage();
  const seen = watch(page);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; frame-src 'self'; script-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>A course page</title></head><body><main><h1>A course page</h1>${before}${markup}</main><script src="embed.js"></script></body></html>`;
  await page.route(ctx.server.url(name), (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  return { page, seen };
}

const frameOf = async (page, id) => {
  const frame = await (await page.waitForSelector(`#${id}`)).contentFrame();
  await ready(frame);
  return frame;
};

frames('the explorer link of a framed widget opens a new tab on the same view, and the widget stays in its frame', async (ctx) => {
  const { page, seen } = await hostPage(ctx, 'popups.html', {
    frames: `<iframe data-gpusplit data-gpusplit-explorer="explorer.html" id="w" data-src="widget.html#model=405b&amp;gpus=16&amp;split=groups"
      sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" title="Widget" width="100%" height="640"></iframe>`,
  });
  await page.goto(ctx.server.url('popups.html'));
  const frame = await frameOf(page, 'w');
  assert.ok(await frame.locator('#explore').isVisible(), 'the host allowed the tab, but the link is hidden');
  assert.is(await frame.getAttribute('#explore', 'target'), '_blank');
  const widget = { memory: await frame.textContent('#memory'), time: await frame.textContent('#time') };
  const [tab] = await Promise.all([ctx.browser.context.waitForEvent('page'), frame.click('#explore')]);
  await tab.waitForLoadState('load');
  assert.match(tab.url(), /\/explorer\.html#model=405b&gpu=lesson&link=fast&split=groups&words=1&n=16&budget=16$/);
  // the explorer runs in its tab (it left the frame's sandbox) and shows the same figures
  await tab.waitForFunction(() => !['…', '', '—'].includes(document.getElementById('time').textContent));
  assert.equal({ memory: await tab.textContent('#memory'), time: await tab.textContent('#time') }, widget);
  // the course page still holds the widget, where it was
  assert.match(frame.url(), /\/widget\.html#/);
  assert.equal({ memory: await frame.textContent('#memory'), time: await frame.textContent('#time') }, widget);
  assert.is(page.url(), ctx.server.url('popups.html'));
  assert.equal(seen.problems, []);
  await tab.close();
});

frames('without allow-popups and allow-popups-to-escape-sandbox the framed widget shows no explorer link', async (ctx) => {
  for (const sandbox of ['allow-scripts', 'allow-scripts allow-popups']) {
    const { page, seen } = await hostPage(ctx, 'no-popups.html', {
      frames: `<iframe data-gpusplit data-gpusplit-explorer="explorer.html" id="w" data-src="widget.html"
        sandbox="${sandbox}" title="Widget" width="100%" height="640"></iframe>`,
    });
    await page.goto(ctx.server.url('no-popups.html'));
    const frame = await frameOf(page, 'w');
    assert.not.ok(await frame.locator('#explore').isVisible(), `sandbox="${sandbox}" shows the link`);
    assert.equal(seen.problems, []);
    await page.close();
  }
});

frames('two frames below the fold are sized to their widgets within a second of load, four fresh loads in four', async (ctx) => {
  for (let load = 0; load < 4; load++) {
    const { page, seen } = await hostPage(ctx, 'below-the-fold.html', {
      before: '<p style="height:3000px">A long page of text.</p>',
      frames: ['a', 'b'].map((id, i) => `<iframe data-gpusplit id="${id}" data-src="widget.html#model=${['8b', '405b'][i]}&amp;split=groups&amp;words=64"
        sandbox="allow-scripts" title="Widget ${id}" width="100%" height="642" style="border:0;display:block"></iframe>`).join('\n'),
    });
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(ctx.server.url('below-the-fold.html'));
    assert.ok(await page.evaluate(() => document.getElementById('a').getBoundingClientRect().top > 2 * innerHeight), 'the frames are in view');
    // within a second of the load event, never scrolled to
    await page.waitForFunction(() => ['a', 'b'].every((id) => /px$/.test(document.getElementById(id).style.height)), null, { timeout: 1000 });
    for (const id of ['a', 'b']) {
      const frame = await frameOf(page, id);
      const content = await frame.evaluate(() => document.documentElement.getBoundingClientRect().height);
      const height = await page.evaluate((f) => document.getElementById(f).getBoundingClientRect().height, id);
      assert.ok(Math.abs(height - Math.ceil(content)) <= 1, `load ${load + 1}, #${id}: ${height} px for ${content} px of widget`);
      assert.ok(content > 1000, `#${id}: the widget is ${content} px tall, not its full view`);
    }
    assert.ok(await page.evaluate(() => scrollY === 0), 'the page scrolled');
    assert.equal(seen.problems, []);
    await page.close();
  }
});

frames('a change of the host\'s fragment after load reaches the mirrored frame, which is not loaded again', async (ctx) => {
  const { page, seen } = await hostPage(ctx, 'mirror.html', {
    before: '<p><a id="to-405b" href="#model=405b&amp;gpus=16&amp;split=groups">The 405B model in groups</a></p>',
    frames: `<iframe data-gpusplit data-gpusplit-mirror id="w" data-src="widget.html" sandbox="allow-scripts" title="Widget" width="100%" height="640"></iframe>
      <iframe data-gpusplit id="other" data-src="widget.html#model=8b" sandbox="allow-scripts" title="Widget two" width="100%" height="640"></iframe>`,
  });
  await page.goto(ctx.server.url('mirror.html'));
  const frame = await frameOf(page, 'w');
  const other = await frameOf(page, 'other');
  assert.equal(await shown(frame), expected(caseOf(ctx.fixture, DEFAULTS)));
  await frame.evaluate(() => { window.loadedOnce = true; });
  // a script on the host page
  await page.evaluate(() => { location.hash = '#model=8b&gpus=2&link=slow'; });
  await frame.waitForFunction(() => document.getElementById('controls').elements.gpus.value === '2');
  assert.equal(await shown(frame), expected(caseOf(ctx.fixture, { ...DEFAULTS, model: '8b', gpus: '2', link: 'slow' })));
  // a link on the host page to another view
  await page.click('#to-405b');
  await frame.waitForFunction(() => document.getElementById('controls').elements.model.value === '405b');
  assert.equal(await shown(frame), expected(caseOf(ctx.fixture, { ...DEFAULTS, model: '405b', gpus: '16', split: 'groups' })));
  assert.ok(await frame.evaluate(() => window.loadedOnce === true), 'the frame was loaded again');
  // the frame that does not mirror keeps its own view
  assert.equal(await shown(other), expected(caseOf(ctx.fixture, { ...DEFAULTS, model: '8b' })));
  assert.equal(seen.problems, []);
});

// The policy the embedding guide (docs/EMBEDDING.md) gives a course page.
const GUIDE_POLICY = readFileSync(join(ROOT, 'docs', 'EMBEDDING.md'), 'utf8').match(/A page whose policy is\s+`([^`]+)`\s+works/)[1];

frames('a course page under the embedding guide\'s policy, as a header and as a tag, runs the widget, sizes it and shows a figure, with no violation', async (ctx) => {
  assert.match(GUIDE_POLICY, /script-src 'self'/);
  for (const as of ['header', 'tag']) {
    const page = await ctx.browser.context.newPage();
    const seen = watch(page);
    const tag = as === 'tag' ? `<meta http-equiv="Content-Security-Policy" content="${GUIDE_POLICY}">` : '';
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">${tag}<title>A course page</title></head><body>
<img id="figure" src="figures/time-per-word.svg" alt="Figure 2" width="640" height="190">
<iframe data-gpusplit data-gpusplit-mirror data-gpusplit-explorer="explorer.html" id="w" data-src="widget.html"
  sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" title="Widget" width="100%" height="640"></iframe>
<script src="embed.js"></script></body></html>`;
    const headers = as === 'header' ? { 'content-security-policy': GUIDE_POLICY } : {};
    await page.route(ctx.server.url(`policy-${as}.html`), (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', headers, body: html }));
    await page.goto(ctx.server.url(`policy-${as}.html`));
    const frame = await frameOf(page, 'w');
    await page.waitForFunction(() => /px$/.test(document.getElementById('w').style.height));
    assert.ok(await frame.locator('#explore').isVisible(), as);
    assert.ok(await page.evaluate(() => document.getElementById('figure').naturalWidth > 0), `${as}: the figure did not load`);
    await page.evaluate(() => { location.hash = '#model=8b'; });
    await frame.waitForFunction(() => document.getElementById('controls').elements.model.value === '8b');
    assert.equal(seen.problems, [], as);
    await page.close();
  }
});

frames.run();
