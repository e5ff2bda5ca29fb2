// What issue 31 asked of the timeline and the words around it: the waiting can be seen
// wherever it is at least 1% of the step, each axis's labels keep apart on a phone, the
// captions follow the split and the step's name, "Groups kept busy" has its axis, caption
// and the slices' figure, and a setting that does not fit gets no sum of a time.
import * as assert from 'uvu/assert';
import { barsDrawn, browserSuite, caseOf, fileUrl, openPage, screenshotPath } from './harness.mjs';

const hashOf = (c) => '#' + new URLSearchParams(['model', 'gpus', 'link', 'split', 'words'].map((f) => [f, String(c[f])])).toString();
const text = (page, id) => page.locator(`#${id}`).textContent();

// Shows a case through the fragment, as a link would, and waits for its figures.
async function show(page, c) {
  await page.evaluate((h) => { location.hash = h; }, hashOf(c));
  await page.waitForFunction((want) => document.getElementById('time').textContent === want, c.view.time);
}

// Each row's drawn waiting in CSS pixels, read from its canvas's pixels (barsDrawn), or
// null where the row draws none.
const drawnWaiting = async (page, id) => (await barsDrawn(page, `#${id} li:not([hidden]) .gs-track`))
  .map((row) => (row.painted.wait ? row.painted.wait[1] - row.painted.wait[0] : null));
// What a screen reader hears of each row: the label of its drawing.
const rowsSaid = (page, id) => page.locator(`#${id} li:not([hidden]) .gs-track`).evaluateAll((tracks) => tracks.map((t) => t.getAttribute('aria-label')));

const timeline = browserSuite('the timeline shows its waiting, its axis and its captions');

timeline('at 390 px, every setting whose waiting is 1% or more draws each GPU\'s waiting at least 3 px wide, and says it in words', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await page.setViewportSize({ width: 390, height: 900 });
  const problems = [];
  let checked = 0;
  for (const c of ctx.fixture.cases) {
    if (!c.fits || c.time.share < 0.01) continue;
    await show(page, c);
    const widths = await drawnWaiting(page, 'timeline');
    const said = await rowsSaid(page, 'timeline');
    assert.equal(said, c.timeline.map((row) => row.text), `${hashOf(c)}: the rows in words`);
    c.timeline.forEach((row, i) => {
      if (row.wait === 0) return;
      checked++;
      if (!(widths[i] >= 3)) problems.push(`${hashOf(c)} GPU ${i + 1}: ${widths[i]} px of waiting (${row.wait.toFixed(2)}% of the step)`);
      // the text alternative gives the waiting's time
      if (!/waiting \d[\d,]*\.\d\d ms/.test(said[i])) problems.push(`${hashOf(c)} GPU ${i + 1} says no waiting: ${said[i]}`);
    });
  }
  assert.ok(checked > 100, `only ${checked} rows checked`);
  assert.equal(problems.slice(0, 5), [], `${problems.length} problems`);
  assert.equal(seen.problems, []);
});

timeline('the opening view (70B, 4 GPUs, fast link) draws its 8.7% of waiting on every row, and is saved as a screenshot', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await page.setViewportSize({ width: 390, height: 900 });
  assert.is(await text(page, 'waiting'), '8.7%');
  const track = await page.locator('#timeline .gs-track').first().evaluate((t) => t.getBoundingClientRect().width);
  for (const width of await drawnWaiting(page, 'timeline')) {
    // 8.65% of the track, drawn at its true share: its pixels' columns, within a pixel and a half
    assert.ok(Math.abs(width - 0.0865146 * track) < 1.5, `${width} px of ${track}`);
  }
  await page.locator('figure:has(#timeline)').screenshot({ path: screenshotPath('timeline-390-opening.png') });
  assert.equal(seen.problems, []);
});

timeline('a waiting under 1% is drawn to its true share, however thin', async (ctx) => {
  // 70B on 4 GPUs in groups: 0.03% waiting, each hand-off 0.01% of the step
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=4&link=fast&split=groups&words=1'));
  const c = caseOf(ctx.fixture, { model: '70b', gpus: 4, link: 'fast', split: 'groups', words: 1 });
  const track = await page.locator('#timeline .gs-track').first().evaluate((t) => t.getBoundingClientRect().width);
  const rows = await barsDrawn(page, '#timeline li:not([hidden]) .gs-track');
  c.timeline.forEach((row, i) => {
    const wait = rows[i].bars.find((bar) => bar[2] === 'wait');
    if (row.wait === 0) assert.is(wait, undefined);
    else {
      // asked at its share, not widened to 4 px ...
      assert.ok(Math.abs(wait[1] - wait[0] - row.wait) < 1e-9 && (wait[3] ?? 0) === 0, JSON.stringify(wait));
      // ... so its pixels hold under a pixel of it
      const painted = rows[i].painted.wait;
      assert.ok(painted === null || painted[1] - painted[0] <= 1, `${JSON.stringify(painted)} of ${track} px`);
    }
  });
  assert.equal(seen.problems, []);
});

// The boxes of an axis's labels that are drawn, left to right.
const labelBoxes = (page, id) => page.locator(`#${id} span`).evaluateAll((spans) => spans
  .filter((s) => getComputedStyle(s).visibility !== 'hidden' && s.textContent !== '')
  .map((s) => { const r = s.getBoundingClientRect(); return { text: s.textContent, left: r.left, right: r.right }; }));

for (const width of [320, 390, 1280]) {
  timeline(`at ${width} px no two labels of an axis overlap, in any setting, the kept-busy axis too`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
    await page.setViewportSize({ width, height: 900 });
    const problems = [];
    for (const c of ctx.fixture.cases) {
      if (!c.fits) continue;
      await show(page, c);
      for (const id of ['axis', 'busy-axis']) {
        if (!(await page.locator(`#${id}`).isVisible())) continue;
        const boxes = await labelBoxes(page, id);
        if (boxes.length < 3) problems.push(`${hashOf(c)} #${id}: ${boxes.length} labels`);
        for (let i = 1; i < boxes.length; i++) {
          if (boxes[i].left < boxes[i - 1].right + 2) problems.push(`${hashOf(c)} #${id}: "${boxes[i - 1].text}" runs into "${boxes[i].text}"`);
        }
      }
    }
    assert.equal(problems.slice(0, 5), [], `${problems.length} problems`);
    assert.equal(seen.problems, []);
  });
}

timeline('the chart\'s caption names the step as the card does', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  assert.match(await text(page, 'chart-caption'), /^Time for one word at each GPU count/);
  await page.click('label:has(> input[name="words"][value="16"])');
  await page.waitForFunction(() => document.getElementById('step-name').textContent === 'Time for one step');
  assert.match(await text(page, 'chart-caption'), /^Time for one step at each GPU count/);
  assert.equal(seen.problems, []);
});

timeline('"Groups kept busy" has its own caption and axis, and the slices\' figure beside it', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=4&link=fast&split=groups&words=64'));
  await page.waitForFunction(() => document.getElementById('busy').checkVisibility());
  assert.match(await page.locator('#busy-timeline').getAttribute('aria-labelledby'), /busy-caption/);
  assert.match(await text(page, 'busy-caption'), /a batch in flight for each group/);
  // four batches of one 69.23 ms step each: the axis is that step's quarters
  assert.equal(await page.locator('#busy-axis span').allTextContents(), ['0 ms', '17.31 ms', '34.62 ms', '51.92 ms', '69.23 ms']);
  assert.ok(await page.locator('#busy-axis').isVisible());
  assert.is(await text(page, 'busy-words'), '3,697.8');
  assert.is(await text(page, 'slices-words'), '3,307.1'); // the lesson's slices on the same 4 GPUs and 64 words
  assert.equal(seen.problems, []);
});

timeline('a setting that does not fit shows no sum of a time: it says it does not fit, and by how much', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=1&link=fast&split=slices&words=1'));
  await page.click('#sum summary');
  await page.waitForFunction(() => document.getElementById('sum-text').textContent.includes('does not fit'));
  const sums = (await text(page, 'sum-text')).replace(/\u00a0/g, ' ');
  // 817,931,124,736 bytes against 73.6 GiB usable (79,027,398,246 bytes): 738,903,726,490 over
  assert.match(sums, /It does not fit: 738,903,726,490 bytes, 688\.16 GiB, more than a GPU can use/);
  assert.ok(!/ ms\b/.test(sums), sums);
  assert.ok(!sums.includes('398.09'), sums);
  assert.equal(seen.problems, []);
});

timeline.run();
