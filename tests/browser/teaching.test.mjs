// What the widget teaches past the lesson's three figures (issue 10): each chat's and all
// chats' words a second, a setting that does not fit explained, the sums, and a page
// that says what it is when it cannot run. Every string is held to the native build's.
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { barsDrawn, browserSuite, caseOf, fileUrl, fragmentOf, openPage, ROOT } from './harness.mjs';

const cli = (...args) => execFileSync(join(ROOT, 'build', 'gpusplit'), args, { encoding: 'utf8' });
const text = (page, id) => page.locator(`#${id}`).textContent();
const visible = (page, id) => page.locator(`#${id}`).isVisible();

const teaching = browserSuite('the widget teaches');

teaching('64 chats at once show each chat\'s and all chats\' words a second, and say the cache is one chat\'s', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=8b&gpus=16&link=slow&split=slices&words=64'));
  const view = caseOf(ctx.fixture, { model: '8b', gpus: 16, link: 'slow', split: 'slices', words: 64 }).view;
  assert.is(await text(page, 'words-note'), `${view.words_per_s} words a second for each chat; ${view.words_all} for all 64 together`);
  assert.is(view.words_per_s, '261.9'); // issue 8: it falls from 350.9 with one chat
  assert.match(await text(page, 'cache-note'), /one 8,192-token chat's/);
  assert.equal(seen.problems, []);
});

teaching('groups leave GPU 1 idle three quarters of the step, less its hand-off; slices leave it none', async (ctx) => {
  // 70B on 4 GPUs, one word: each group reads 17.30 ms of a 69.23 ms step and hands on once
  // (7.23 us), so GPU 1 is idle (3 x 17.30 + 2 x 0.00723) / 69.23 = 74.997%, shown as 75.0%
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=4&link=fast&split=groups&words=1'));
  assert.is(await text(page, 'idle'), '75.0%');
  await page.click('input[name="split"][value="slices"]');
  assert.is(await text(page, 'idle'), '0.0%');
  assert.equal(seen.problems, []);
});

teaching('405B on 4 GPUs does not fit: the limit on the bar, the fewest count, and a button to a count that fits', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=4&link=fast&split=slices&words=1'));
  const view = caseOf(ctx.fixture, { model: '405b', gpus: 4, link: 'fast', split: 'slices', words: 1 }).view;
  const fewest = JSON.parse(cli('report', '--model', '405b', '--json')).fewest;
  assert.is(fewest, 11); // lesson: the fewest GPUs that fit are 1, 2 and 11
  assert.ok(await visible(page, 'fit-note'));
  assert.is(await text(page, 'fewest'), `it needs at least ${fewest} GPUs`);
  // the bar drawn over in the waiting's ink, with the limit at the share a GPU can use
  let [bar] = await barsDrawn(page, '#memory-bar');
  assert.equal(bar.bars.map((b) => b[2]), ['over', 'limit']);
  assert.ok(Math.abs(bar.bars[1][0] - view.limit_bar) < 1e-3, `${bar.bars[1][0]} against ${view.limit_bar}`);
  assert.equal(checkDrawn(bar, 'memory'), []);
  assert.ok(bar.painted.fg && Math.abs(bar.painted.fg[0] - view.limit_bar / 100 * bar.width) <= 1.5, JSON.stringify(bar.painted));
  assert.is(await text(page, 'fit-button'), 'Show 16 GPUs');
  await page.click('#fit-button');
  const fits = caseOf(ctx.fixture, { model: '405b', gpus: 16, link: 'fast', split: 'slices', words: 1 }).view;
  assert.is(await text(page, 'memory'), fits.memory);
  assert.is(await text(page, 'time'), fits.time);
  assert.ok(!(await visible(page, 'fit-note')));
  [bar] = await barsDrawn(page, '#memory-bar');
  assert.equal(bar.bars.map((b) => b[2]), ['read']);
  assert.is(bar.painted.fg, null);
  assert.is(await fragmentOf(page), '#model=405b&gpus=16&link=fast&split=slices&words=1');
  assert.equal(seen.problems, []);
});

teaching('"Show the sum" holds the command line\'s --explain sums for the setting shown', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  assert.ok(!(await visible(page, 'sum-text')));
  await page.click('#sum summary');
  await page.waitForFunction(() => document.getElementById('sum-text').textContent.includes('Memory on each'));
  // the page glues each term with no-break spaces (gs_explain_glue); the words are the command line's
  const sums = (await text(page, 'sum-text')).replace(/\u00a0/g, ' ');
  assert.ok(cli('report', '--explain', '--gpus', '4').endsWith(sums), sums);
  assert.match(sums, /70,553,706,496 x 2 \/ 4 = 35,276,853,248/);
  await page.click('label:has(> input[name="split"][value="groups"])');
  await page.waitForFunction(() => document.getElementById('sum-text').textContent.includes('groups hand it on'));
  assert.ok(cli('report', '--explain', '--gpus', '4', '--split', 'groups').endsWith((await text(page, 'sum-text')).replace(/\u00a0/g, ' ')));
  assert.equal(seen.problems, []);
});

// A canvas's bars as the page asked them drawn (barsDrawn's `bars`), each [from, to] in
// percent of its width, with its kind; and whether its pixels agree: each ink's columns
// span what its bars ask, to within a pixel and a half at each end. A waiting drawn under
// a pixel may leave no column of its ink.
function checkDrawn(got, label) {
  const problems = [];
  const extent = { read: null, wait: null, fg: null };
  for (const [from, to, kind, least = 0] of got.bars) {
    const ink = { read: 'read', over: 'wait', wait: 'wait', limit: 'fg' }[kind];
    const left = from / 100 * got.width, right = left + Math.max((to - from) / 100 * got.width, least);
    if (right - left <= 0) continue;
    extent[ink] = extent[ink] ? [Math.min(extent[ink][0], left), Math.max(extent[ink][1], right)] : [left, right];
  }
  for (const ink of ['read', 'wait', 'fg']) {
    const want = extent[ink], painted = got.painted[ink];
    if (!want) { if (painted) problems.push(`${label}: ${ink} painted at ${painted} where none is asked`); continue; }
    if (!painted) { if (want[1] - want[0] >= 1.5) problems.push(`${label}: no ${ink} painted for ${want}`); continue; }
    if (Math.abs(painted[0] - want[0]) > 1.5 || Math.abs(painted[1] - want[1]) > 1.5) problems.push(`${label}: ${ink} painted ${painted}, asked ${want}`);
  }
  return problems;
}

teaching("every bar shows the module's share: memory, waiting, and each row of the chart", async (ctx) => {
  for (const setting of [{ model: '70b', gpus: 4, link: 'fast', split: 'slices', words: 1 },
    { model: '405b', gpus: 16, link: 'slow', split: 'slices', words: 64 },
    { model: '8b', gpus: 2, link: 'fast', split: 'groups', words: 16 }]) {
    const c = caseOf(ctx.fixture, setting);
    const hash = '#' + new URLSearchParams(Object.entries(setting).map(([k, v]) => [k, String(v)])).toString();
    const { page, seen } = await openPage(ctx, fileUrl('widget.html', hash));
    const [memory] = await barsDrawn(page, '#memory-bar');
    const [waiting] = await barsDrawn(page, '#waiting-bar');
    const chart = await barsDrawn(page, '#chart .gs-track');
    const near = (x, want, what) => assert.ok(Math.abs(x - want) < 1e-3, `${hash} ${what}: ${x} against ${want}`);
    assert.equal(memory.bars.map((b) => b[2]), ['read']);
    near(memory.bars[0][0], 0, 'memory from');
    near(memory.bars[0][1], c.view.mem_bar, 'memory');
    assert.equal(waiting.bars.map((b) => b[2]), ['wait']);
    near(waiting.bars[0][1] - waiting.bars[0][0], c.view.wait_bar, 'waiting');
    assert.ok(c.chart.some((row) => row.wait_bar > 0), `${hash}: a chart with no waiting tests too little`);
    assert.is(chart.length, c.chart.length);
    c.chart.forEach((row, i) => {
      const [read, wait] = chart[i].bars;
      near(read[0], 0, `row ${i} reading from`);
      near(read[1] - read[0], row.read_bar, `row ${i} reading`);
      near(wait[0], row.read_bar, `row ${i} waiting from`);
      near(wait[1] - wait[0], row.wait_bar, `row ${i} waiting`);
    });
    const problems = [...checkDrawn(memory, 'memory'), ...checkDrawn(waiting, 'waiting'), ...chart.flatMap((row, i) => checkDrawn(row, `chart row ${i}`))];
    assert.equal(problems, [], hash);
    assert.ok(memory.painted.read && chart.some((row) => row.painted.wait), `${hash}: the pixels hold the bars`);
    assert.equal(seen.problems, []);
    await page.close();
  }
});

teaching('the timeline draws groups taking turns, three GPUs in four idle, and slices reading together', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=4&link=fast&split=groups&words=1'));
  // each row as asked: [idle before, reading, waiting, idle after], and its pixels checked against it
  const widths = async () => {
    const rows = await barsDrawn(page, '#timeline li:not([hidden]) .gs-track');
    const problems = rows.flatMap((row, i) => checkDrawn(row, `GPU ${i + 1}`));
    assert.equal(problems, []);
    return rows.map(({ bars: [read, wait] }) => {
      // a GPU that waits for nothing (the last group) draws no waiting
      const end = wait ? wait[1] : read[1];
      return [read[0], read[1] - read[0], wait ? wait[1] - wait[0] : 0, 100 - end];
    });
  };
  const want = (split) => caseOf(ctx.fixture, { model: '70b', gpus: 4, link: 'fast', split, words: 1 }).timeline
    .map((r) => [r.idle_before, r.read, r.wait, r.idle_after]);
  const close = (got, w) => got.length === w.length && got.every((row, i) => row.every((x, k) => Math.abs(x - w[i][k]) < 1e-3));
  let got = await widths();
  assert.ok(close(got, want('groups')), JSON.stringify(got));
  assert.ok(got[3][0] > 74 && got[0][3] > 74, 'the last GPU waits three turns, the first idles after its own');
  assert.is(await text(page, 'waiting'), '0.03%'); // lesson: 69.23 ms in all, 0.03% of it waiting
  await page.click('label:has(> input[name="split"][value="slices"])');
  await page.waitForFunction(() => document.getElementById('waiting').textContent === '8.7%');
  got = await widths();
  // slices swap twice in every layer: each row gathers its reading, then its waiting (8.65%,
  // over 4 px, so drawn at its true share)
  assert.ok(close(got, want('slices')), JSON.stringify(got));
  assert.ok(got.every((row) => row[0] === 0 && row[3] < 1e-9), 'slices read together');
  assert.equal(seen.problems, []);
});

teaching('the bars are drawn in the inks of the scheme shown: the system\'s, as it changes, or the one the fragment forces', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=8&link=slow&split=slices&words=16'));
  const inkOf = (scheme) => page.evaluate((s) => {
    const probe = document.createElement('span');
    probe.style.cssText = `color-scheme:${s};color:var(--gs-read)`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, scheme);
  const [light, dark] = [await inkOf('light'), await inkOf('dark')];
  assert.is.not(light, dark);
  const drawnIn = async () => {
    const rows = await barsDrawn(page, '#chart .gs-track');
    const read = await page.evaluate(() => getComputedStyle(document.querySelector('#inks [data-ink=read]')).color);
    return { read, problems: rows.flatMap((row, i) => checkDrawn(row, `row ${i}`)), painted: rows.filter((row) => row.painted.read).length };
  };
  for (const [scheme, want] of [['dark', dark], ['light', light]]) {
    await page.emulateMedia({ colorScheme: scheme });
    const got = await drawnIn();
    assert.is(got.read, want, scheme);
    assert.equal(got.problems, [], scheme);
    assert.ok(got.painted >= 4, `${scheme}: ${got.painted} rows painted in its ink`);
  }
  // the fragment forces dark on a light system
  await page.evaluate(() => { location.hash = '#model=70b&gpus=8&link=slow&split=slices&words=16&theme=dark'; });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  const forced = await drawnIn();
  assert.is(forced.read, dark);
  assert.equal(forced.problems, []);
  assert.ok(forced.painted >= 4);
  assert.equal(seen.problems, []);
});

teaching('"Try your own model" opens the explorer on the same view, with the same figures', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=16&link=slow&split=groups&words=64'));
  const widget = { memory: await text(page, 'memory'), time: await text(page, 'time'), waiting: await text(page, 'waiting') };
  await page.click('#explore');
  await page.waitForFunction(() => location.pathname.endsWith('explorer.html') &&
    !['…', '', '—'].includes(document.getElementById('time').textContent));
  assert.equal({ memory: await text(page, 'memory'), time: await text(page, 'time'), waiting: await text(page, 'waiting') }, widget);
  assert.equal(seen.problems, []);
});

teaching.run();

const blocked = browserSuite('the widget with scripts blocked', { contextOptions: { javaScriptEnabled: false } });

blocked('says so in plain words, gives the lesson\'s opening figures, and shows no dead controls', async (ctx) => {
  const { page } = await openPage(ctx, fileUrl('widget.html'), { figures: false });
  const view = caseOf(ctx.fixture, { model: '70b', gpus: 4, link: 'fast', split: 'slices', words: 1 }).view;
  const note = await page.locator('noscript').textContent();
  assert.match(note, /needs JavaScript/);
  for (const figure of [view.memory, view.time, view.waiting]) assert.ok(note.includes(figure), `${figure} missing: ${note}`);
  assert.ok(!(await page.locator('#controls').isVisible()));
  assert.ok(!(await page.locator('#results').isVisible()));
});

blocked.run();
