// The widget at a phone's width (360 px) and a laptop's (1280 px): for every setting nothing
// sticks out of the viewport, nothing scrolls sideways and no box overflows its text.
// Screenshots go to build/screenshots/ for a person to look at.
import * as assert from 'uvu/assert';
import { browserSuite, expected, fileUrl, openPage, screenshotPath } from './harness.mjs';

const layout = browserSuite('layout at 360 px and 1280 px wide');

// What is cut off or sticks out now, one line per element.
const overflows = (page) => page.evaluate(() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '');
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > width + 0.5 || r.left < -0.5) out.push(`${name(e)} spans ${r.left}..${r.right} of ${width}`);
    // a box whose content is wider than itself cuts it off or spills it
    if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) out.push(`${name(e)} holds ${e.scrollWidth} px in ${e.clientWidth}`);
  }
  return out;
});

const hashOf = (c) => '#' + new URLSearchParams(Object.entries(expected(c).setting)).toString();

for (const width of [360, 1280]) {
  layout(`at ${width} px wide no setting cuts anything off or scrolls sideways`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
    await page.setViewportSize({ width, height: 900 });
    const problems = [];
    for (const c of ctx.fixture.cases) {
      await page.evaluate((h) => { location.hash = h; }, hashOf(c));
      const now = await page.evaluate(() => document.getElementById('time').textContent);
      assert.is(now, c.view.time, 'the fragment did not reach the figures');
      for (const p of await overflows(page)) problems.push(`${hashOf(c)}: ${p}`);
    }
    assert.equal(problems.slice(0, 5), [], `${problems.length} problems`);
    assert.equal(seen.problems, []);
  });

  for (const colorScheme of ['light', 'dark']) {
    layout(`a ${width} px screenshot in the ${colorScheme} scheme is saved, of the default and of a setting that does not fit`, async (ctx) => {
      const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: screenshotPath(`widget-${width}-${colorScheme}.png`), fullPage: true });
      await page.evaluate(() => { location.hash = '#model=405b&gpus=1&link=slow&split=groups&words=64'; });
      await page.waitForFunction(() => document.getElementById('waiting').textContent === '—');
      await page.screenshot({ path: screenshotPath(`widget-${width}-${colorScheme}-no-fit.png`), fullPage: true });
      assert.equal(await overflows(page), []);
      assert.equal(seen.problems, []);
    });
  }

  layout(`at ${width} px wide the embedding demo, frame included, fits and is saved as a screenshot`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('embed-demo.html'), { figures: false });
    await page.setViewportSize({ width, height: 900 });
    const frame = await (await page.$('#gpusplit')).contentFrame();
    await frame.waitForFunction(() => document.getElementById('memory').textContent !== '…');
    // wait until the frame has taken the widget's height at this width
    await page.waitForFunction(async () => {
      const f = document.getElementById('gpusplit');
      return f.style.height !== '';
    });
    assert.equal(await overflows(page), []);
    assert.equal(await overflows(frame), []);
    await page.screenshot({ path: screenshotPath(`embed-demo-${width}.png`), fullPage: true });
    assert.equal(seen.problems, []);
  });
}

layout.run();
