// Every setting the widget offers, chosen the way a learner chooses it: by clicking the
// radio buttons' labels. Each shows exactly the strings `gpusplit fixture` gives for it.
import * as assert from 'uvu/assert';
import { browserSuite, caseOf, expected, fileUrl, FIELDS, openPage, requested, shown } from './harness.mjs';

const settings = browserSuite('every setting, chosen through the controls');

const label = (field, value) => `label:has(> input[name="${field}"][value="${value}"])`;

// Every combination of the fields' values, ordered so that two in a row differ in one
// field only (a reflected Gray code): one click per step.
function* walk(dims) {
  if (dims.length === 0) return yield {};
  const [[field, values], ...rest] = dims;
  const inner = [...walk(rest)];
  for (const [i, value] of values.entries()) {
    for (const setting of i % 2 ? [...inner].reverse() : inner) yield { [field]: String(value), ...setting };
  }
}

settings('each of the 180 settings shows the fixture\'s memory, time, waiting and chart rows', async (ctx) => {
  assert.is(ctx.fixture.cases.length, 180);
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  const fx = ctx.fixture;
  const order = [...walk([['model', fx.models.map((m) => m.key)], ['link', fx.links.map((l) => l.key)],
    ['gpus', fx.counts], ['split', fx.splits], ['words', fx.words]])];
  assert.is(new Set(order.map((s) => caseOf(fx, s))).size, 180);
  let now = (await shown(page)).setting;
  const wrong = [];
  let clicks = 0;
  for (const setting of order) {
    const want = expected(caseOf(fx, setting));
    for (const field of FIELDS) {
      if (now[field] === want.setting[field]) continue;
      await page.click(label(field, want.setting[field]), { noWaitAfter: true });
      clicks++;
    }
    const got = await shown(page);
    now = got.setting;
    if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push({ want, got });
  }
  assert.equal(wrong.slice(0, 3), [], `${wrong.length} settings differ`);
  assert.ok(clicks >= 179, `only ${clicks} clicks`); // the walk starts from the defaults
  assert.equal(requested(seen), [fileUrl('widget.html')]);
  assert.equal(seen.problems, []);
});

settings('a mouse click on a radio button itself, not its label, changes the figures', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  const box = await page.locator('input[name="model"][value="405b"]').boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await shown(page), expected(caseOf(ctx.fixture, { model: '405b', gpus: 4, link: 'fast', split: 'slices', words: 1 })));
  const text = await page.locator(label('split', 'groups')).boundingBox();
  await page.mouse.click(text.x + text.width - 4, text.y + text.height / 2);
  assert.equal(await shown(page), expected(caseOf(ctx.fixture, { model: '405b', gpus: 4, link: 'fast', split: 'groups', words: 1 })));
  assert.equal(seen.problems, []);
});

settings.run();
