// Every "Check yourself" question of the lesson (tests/lesson/lesson.txt, /work/shared/seed)
// answered from the widget alone, each driven through its controls as a learner would,
// with the lesson's own figures or figures worked by hand; then what the timeline, the
// kept-busy view and the wording must say (issue 20, items 1 to 3).
import * as assert from 'uvu/assert';
import { browserSuite, fileUrl, openPage } from './harness.mjs';

const text = (page, id) => page.locator(`#${id}`).textContent();
const visible = (page, id) => page.locator(`#${id}`).isVisible();
// a radio is picked by its label, as a learner clicks it
const pick = (page, field, value) => page.click(`label:has(> input[name="${field}"][value="${value}"])`);
// the sums as the command line prints them: the page glues a term with no-break spaces
const sums = async (page) => (await text(page, 'sum-text')).replace(/\u00a0/g, ' ');
const openSum = async (page, has) => {
  if (!(await page.locator('#sum').evaluate((d) => d.open))) await page.click('#sum summary');
  await page.waitForFunction((want) => document.getElementById('sum-text').textContent.replace(/\u00a0/g, ' ').includes(want), has);
};
// what a screen reader hears of each row: the label of its drawing
const timelineSaid = (page, id = 'timeline') => page.locator(`#${id} li:not([hidden]) .gs-track`).evaluateAll((tracks) => tracks.map((t) => t.getAttribute('aria-label')));

const check = browserSuite('the lesson\'s "Check yourself", answered from the widget');

check('1. why 70B cannot run on one GPU, and fits on two', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await pick(page, 'gpus', '1');
  await page.waitForFunction(() => document.getElementById('time').textContent === 'Does not fit');
  // lesson: "Its weights take 131.42 GiB at 16 bits, and one GPU can use 73.6 GiB"
  assert.match(await text(page, 'parts'), /^weights 131\.42 GiB,/);
  assert.is(await text(page, 'usable'), '73.6 GiB');
  assert.ok(await visible(page, 'fit-note'));
  // "With two GPUs each holds about 65.71 GiB of weights, and ... 68.41 GiB, which fits."
  await pick(page, 'gpus', '2');
  await page.waitForFunction(() => document.getElementById('memory').textContent === '68.41 GiB');
  assert.match(await text(page, 'parts'), /^weights 65\.71 GiB,/);
  assert.ok(!(await visible(page, 'fit-note')));
  assert.equal(seen.problems, []);
});

check('2. four GPUs read in 17.30 ms, a word takes 18.94 ms: the rest is 160 swaps of about 10 us, 1.64 ms', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  assert.is(await text(page, 'time'), '18.94 ms');
  assert.is(await text(page, 'waiting-note'), '1.64 ms of 18.94 ms waiting, in 160 swaps; 17.30 ms reading');
  await openSum(page, '160 x 10.24 us = 1.64 ms');
  assert.match(await sums(page), /160 swaps a word \(2 x 80 layers\)/);
  assert.equal(seen.problems, []);
});

check('3. 405B: 252 swaps a word, each message 16,384 x 2 = 32,768 bytes', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await pick(page, 'model', '405b');
  await pick(page, 'gpus', '16');
  await openSum(page, '252 swaps a word (2 x 126 layers)');
  assert.match(await sums(page), /16,384 numbers x 2 bytes x 1 word = 32,768 bytes/);
  assert.match(await text(page, 'waiting-note'), /in 252 swaps/);
  assert.equal(seen.problems, []);
});

check('4. 8 to 16 GPUs: 70B goes from 11.06 to 8.27 ms, the 8B model falls from 514 to about 483 words a second', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await pick(page, 'gpus', '8');
  await page.waitForFunction(() => document.getElementById('time').textContent === '11.06 ms');
  await pick(page, 'gpus', '16');
  await page.waitForFunction(() => document.getElementById('time').textContent === '8.27 ms');
  // 11.06 / 8.27 = 1.34 times faster, not 2
  await pick(page, 'model', '8b');
  const perChat = async () => parseFloat((await text(page, 'words-note')).replace(/,/g, ''));
  await page.waitForFunction(() => document.getElementById('time').textContent === '2.07 ms');
  const at16 = await perChat();
  await pick(page, 'gpus', '8');
  await page.waitForFunction(() => document.getElementById('time').textContent === '1.95 ms');
  const at8 = await perChat();
  assert.is(Math.round(at8), 514); // 1 / 1.946 ms
  assert.ok(at16 > 483 && at16 < 484, `${at16}`); // 1 / 2.068 ms: slower on 16 than on 8
  assert.match(await text(page, 'words-note'), /words a second for the one chat$/);
  assert.equal(seen.problems, []);
});

check('5. groups: 69.23 ms a word with three GPUs in four idle; kept busy by many chats they pay off', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await pick(page, 'split', 'groups');
  await page.waitForFunction(() => document.getElementById('time').textContent === '69.23 ms');
  assert.match(await text(page, 'waiting-note'), /; 69\.20 ms reading$/);
  assert.is(await text(page, 'waiting'), '0.03%');
  // each GPU reads 17.30 ms of the 69.23 ms step: idle (69.23 - 17.30) / 69.23 = 75.0%
  const said = await timelineSaid(page);
  assert.is(said.length, 4);
  for (const line of said) assert.match(line, /^GPU \d: reading 17\.30 ms, .*idle 51\.9\d ms \(75\.0%\)$/);
  assert.ok(!(await visible(page, 'busy')), 'one word at once: nothing to keep busy');
  // 64 chats: one batch still gives 64 / 69.23 ms = 924.4 words a second, under slices'
  await pick(page, 'words', '64');
  await page.waitForFunction(() => document.getElementById('busy').checkVisibility());
  assert.match(await text(page, 'words-note'), /; 924\.4 for all 64 together$/);
  // four batches of 64 in flight: 4 x 64 / 69.23 ms = 3,697.8, each chat still 14.4 a second
  assert.is(await text(page, 'busy-words'), '3,697.8');
  assert.is(await text(page, 'busy-each'), '14.4 words a second for each chat; 3,697.8 for all 256 together');
  assert.match(await text(page, 'busy-note'), /each chat still waits 69\.23 ms for each word/);
  assert.match(await text(page, 'busy-note'), /smaller bunches gains nothing while reading sets the pace/);
  // the extra batches' caches: 3 more chats' 671,088,640 bytes on each GPU, 34.93 + 1.88 GiB
  assert.is(await text(page, 'busy-memory'), '36.81 GiB');
  assert.match(await text(page, 'busy-cache'), /for each of the 4 batches in flight/);
  // every GPU busy: reading 4 x 17.30 = 69.20 ms of the step
  for (const line of await timelineSaid(page, 'busy-timeline')) assert.match(line, /^GPU \d: reading 69\.20 ms, .*idle 0\.00 ms \(0\.0%\)$/);
  // against slices on the same 4 GPUs and 64 words: 3,307.1 (issue 20), shown beside it (issue 31)
  assert.is(await text(page, 'slices-words'), '3,307.1');
  assert.is(await text(page, 'slices-each'), '51.7 words a second for each chat; 3,307.1 for all 64 together');
  await pick(page, 'split', 'slices');
  await page.waitForFunction(() => !document.getElementById('busy').checkVisibility());
  assert.match(await text(page, 'words-note'), /; 3,307\.1 for all 64 together$/);
  assert.equal(seen.problems, []);
});

check.run();

const timeline = browserSuite('the timeline reads');

// whether each row's label is hidden from a screen reader, and its drawing an image it hears by name
const rows = (page, id = 'timeline') => page.locator(`#${id} li:not([hidden])`).evaluateAll((lis) => lis.map((li) => ({
  hidden: li.children[0].getAttribute('aria-hidden') === 'true' && li.querySelector('.gs-track').getAttribute('role') === 'img' })));

timeline('a time axis in ms: 0 and each quarter of the step', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  // 18.94 ms / 4 = 4.73, 9.47, 14.20, 18.94
  assert.equal(await page.locator('#axis span').allTextContents(), ['0 ms', '4.73 ms', '9.47 ms', '14.20 ms', '18.94 ms']);
  await pick(page, 'split', 'groups');
  // 69.23 ms: each quarter one group's turn
  await page.waitForFunction(() => document.querySelector('#axis span:last-child').textContent === '69.23 ms');
  assert.is(await page.locator('#axis span').nth(1).textContent(), '17.31 ms');
  assert.equal(seen.problems, []);
});

timeline('slices gather each GPU\'s reading, then its waiting, and the caption says so; groups say how groups work', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=16&link=fast&split=slices&words=1'));
  const caption = () => page.locator('#timeline-caption').innerText();
  assert.match(await caption(), /twice in every layer; each row gathers its reading, then its waiting/);
  assert.ok(!/Groups/.test(await caption()));
  await pick(page, 'split', 'groups');
  await page.waitForFunction(() => document.getElementById('how-slices').hidden);
  assert.match(await caption(), /Groups: each GPU holds a run of layers; it reads them in its turn, waits while it hands the word on, and is idle while the others read/);
  assert.ok(!/Slices/.test(await caption()));
  assert.is((await rows(page)).length, 16);
  assert.equal(seen.problems, []);
});

timeline('a setting that does not fit draws no timeline, and says why', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=4&link=fast&split=slices&words=1'));
  assert.is(await page.locator('#timeline li:not([hidden])').count(), 0);
  assert.ok(await visible(page, 'timeline-none'));
  assert.ok(!(await visible(page, 'axis')));
  await pick(page, 'gpus', '16');
  await page.waitForFunction(() => document.querySelectorAll('#timeline li:not([hidden])').length === 16);
  assert.ok(!(await visible(page, 'timeline-none')));
  assert.equal(seen.problems, []);
});

timeline('a screen reader hears each GPU in words, not its bars', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=4&link=fast&split=groups&words=1'));
  // a turn is 69.2042 / 4 = 17.3011 ms of a 69.2259 ms step; a hand-off 7.23 us; GPU 1 idles
  // 69.2259 - 17.3011 - 0.0072 = 51.9176 ms, GPU 4 three turns and three hand-offs, 51.9248 ms
  assert.equal(await timelineSaid(page), [
    'GPU 1: reading 17.30 ms, waiting 0.01 ms in its hand-off, idle 51.92 ms (75.0%)',
    'GPU 2: reading 17.30 ms, waiting 0.01 ms in its hand-off, idle 51.92 ms (75.0%)',
    'GPU 3: reading 17.30 ms, waiting 0.01 ms in its hand-off, idle 51.92 ms (75.0%)',
    'GPU 4: reading 17.30 ms, idle 51.92 ms (75.0%)']);
  assert.ok((await rows(page)).every((r) => r.hidden), 'the labels are hidden from a screen reader, the drawings heard by their words');
  const tree = await page.locator('#timeline').ariaSnapshot();
  assert.match(tree, /GPU 2: reading 17\.30 ms/);
  assert.ok(!/listitem: GPU 2\s*$/m.test(tree), tree);
  await pick(page, 'split', 'slices');
  await page.waitForFunction(() => document.querySelector('#timeline .gs-track').getAttribute('aria-label').includes('swaps'));
  assert.is((await timelineSaid(page))[1], 'GPU 2: reading 17.30 ms, waiting 1.64 ms in 160 swaps, idle 0.00 ms (0.0%)');
  assert.equal(seen.problems, []);
});

timeline.run();

const words = browserSuite('words that match');

words('"Time for one step" when words at once exceed one', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  assert.is(await text(page, 'step-name'), 'Time for one word');
  await pick(page, 'words', '16');
  await page.waitForFunction(() => document.getElementById('step-name').textContent === 'Time for one step');
  assert.match(await text(page, 'words-note'), /for each chat; .* for all 16 together$/);
  await openSum(page, 'Time for one step, one word for each of 16 chats:');
  assert.match(await sums(page), /ms a step;/);
  assert.equal(seen.problems, []);
});

words('one GPU and one chat are said in the singular, and one GPU swaps nothing', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=8b&gpus=1&link=fast&split=slices&words=1'));
  assert.is(await text(page, 'waiting-note'), 'No swaps: one GPU holds every layer; 7.88 ms reading');
  assert.is(await text(page, 'words-note'), '127.0 words a second for the one chat');
  assert.is(await text(page, 'cache-note'), 'The cache is one chat\'s, 8,192 tokens long.');
  assert.equal(await timelineSaid(page), ['GPU 1: reading 7.88 ms, idle 0.00 ms (0.0%)']);
  await openSum(page, 'Memory on the one GPU');
  for (const split of ['slices', 'groups']) {
    await pick(page, 'split', split);
    await page.waitForFunction(() => document.getElementById('sum-text').textContent.includes('swaps with no one'));
    const s = await sums(page);
    assert.ok(!/\b1 (GPUs|chats|groups)\b|all 1 together|\d[\d,]* swaps|hand it on/.test(s), s);
  }
  assert.equal(seen.problems, []);
});

words('the sum and the cards give the same figures to the same places', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=70b&gpus=4&link=fast&split=groups&words=1'));
  for (const w of ['1', '64']) {
    await pick(page, 'words', w);
    const time = await text(page, 'time');
    await openSum(page, `= ${time} a `);
    const s = await sums(page);
    const waiting = await text(page, 'waiting');
    assert.ok(waiting === (w === '1' ? '0.03%' : '0.04%'), waiting); // 0.02 / 69.23 and 0.03 / 69.23
    assert.ok(s.includes(`= ${waiting}\n`), `${waiting} not in ${s}`);
    assert.ok(s.includes(`words a second: ${(await text(page, 'words-note')).split(' ')[0]} for `), s);
  }
  assert.equal(seen.problems, []);
});

words('at 360 px every control is a target at least 24 px tall and wide', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=4&link=fast&split=slices&words=1'));
  await page.setViewportSize({ width: 360, height: 800 });
  const small = await page.evaluate(() => [...document.querySelectorAll('label, button, summary')]
    .filter((e) => e.checkVisibility())
    .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
    .filter(([, r]) => r.height < 24 || r.width < 24)
    .map(([name, r]) => `${name}: ${r.width} x ${r.height}`));
  assert.equal(small, []);
  assert.equal(seen.problems, []);
});

words('at 360 px the sum breaks only between terms: no number, product or unit is split', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await page.setViewportSize({ width: 360, height: 800 });
  for (const hash of ['#model=70b&gpus=4&link=fast&split=slices&words=1', '#model=405b&gpus=16&link=slow&split=groups&words=64']) {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await openSum(page, 'Memory on each');
    const got = await page.evaluate(() => {
      const pre = document.getElementById('sum-text');
      const spans = [...pre.children];
      return {
        split: spans.filter((s) => s.getClientRects().length !== 1).map((s) => s.textContent),
        terms: spans.map((s) => s.textContent.replace(/\u00a0/g, ' ')),
        lines: new Set(spans.map((s) => Math.round(s.getBoundingClientRect().top))).size,
        newlines: pre.textContent.split('\n').length,
        wide: pre.scrollWidth > pre.clientWidth ? spans.filter((s) => s.getBoundingClientRect().right > pre.getBoundingClientRect().right).map((s) => s.textContent) : null,
      };
    });
    assert.equal(got.split, [], 'a run the page may not break was broken');
    assert.ok(got.lines > got.newlines, 'at 360 px some lines must wrap, or the test shows nothing');
    assert.equal(got.wide, null, 'the sum scrolls sideways');
    // the lesson's own terms stay whole
    if (hash.includes('70b')) {
      for (const term of ['70,553,706,496 x 2 / 4', '2 x 80 layers x 8 key/value', '160 x 10.24 us', '35,276,853,248 bytes'])
        assert.ok(got.terms.some((t) => t.includes(term)), `${term} is not one run: ${got.terms.join(' | ')}`);
    }
  }
  assert.equal(seen.problems, []);
});

words.run();
