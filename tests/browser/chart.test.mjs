// The explorer's plan chart (web/src/explorer_chart.js, placed by csrc/emit/plan_chart.c) in
// Chromium: every point reachable by the mouse (nothing covers its centre) and by the
// keyboard (the chart is one Tab stop and the arrow keys walk every point); the table holds
// the same points; choosing one sets the cards to report's figures for its flags; a budget
// too small names the fewest GPUs that hold the model; the widget's link opens the explorer
// with a budget that holds it; a pasted FP8 config says what would price it; axe-core.
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { browserSuite, fileUrl, openPage, ROOT } from './harness.mjs';

const GPUSPLIT = join(ROOT, 'build', 'gpusplit');
// the page's setting, as report's flags: the explorer opens on real rules for a catalogue
// GPU (tests/browser/rules.test.mjs), so the tests held to these ask for the lesson's
// (#rules=lesson), whose 70B frontier within 16 GPUs is the crowded one
const LESSON_70B = ['--model', '70b', '--gpu', 'h100-sxm', '--link', 'nvlink4', '--assume', 'lesson'];
const planOf = (flags, budget) => JSON.parse(execFileSync(GPUSPLIT, ['plan', ...flags, '--gpus-max', String(budget), '--json'], { encoding: 'utf8' }));
const reportRow = (flags) => JSON.parse(execFileSync(GPUSPLIT, ['report', ...flags, '--json'], { encoding: 'utf8' })).rows[0];

// Each point's index and whether the element at its centre is the point itself.
const reach = (page) => page.evaluate(() => [...document.querySelectorAll('#frontier .ex-point')].map((p) => {
  const r = p.getBoundingClientRect();
  return { index: p.dataset.index, top: document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === p, width: r.width };
}));

const chart = browserSuite('the explorer\'s plan chart');

chart('every point of a crowded frontier is the topmost element at its centre, and a click there chooses it', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#budget=16&rules=lesson'));
  const native = planOf(LESSON_70B, 16);
  assert.ok(native.frontier.length >= 40, `a crowded frontier: ${native.frontier.length} points`);
  await page.locator('#plot').scrollIntoViewIfNeeded(); // elementFromPoint sees the viewport only
  const points = await reach(page);
  assert.is(points.length, native.frontier.length);
  assert.equal(points.filter((p) => !p.top).map((p) => p.index), [], 'points covered by another');
  assert.ok(points.every((p) => p.width >= 4), 'a dot too small to aim at');
  for (const i of [0, Math.floor(points.length / 2), points.length - 1]) {
    const box = await page.locator(`#point-${i}`).boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    assert.is(await page.getAttribute('#frontier', 'aria-activedescendant'), `point-${i}`);
    assert.ok((await page.textContent('#layout-flags')).endsWith(native.frontier[i].flags));
  }
  assert.equal(seen.problems, []);
});

chart('the chart is one Tab stop, and the arrow keys, Home and End reach every point in order', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#budget=16'));
  const count = await page.locator('#frontier .ex-point').count();
  await page.focus('#target');
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement.id), 'frontier');
  assert.is(await page.locator('#plot [tabindex], #plot button, #plot a').count(), 1, 'more than one Tab stop in the chart');
  const reached = [];
  await page.keyboard.press('ArrowRight');
  reached.push(await page.getAttribute('#frontier', 'aria-activedescendant'));
  for (let i = 1; i < count; i++) {
    await page.keyboard.press(i % 2 ? 'ArrowRight' : 'ArrowDown');
    reached.push(await page.getAttribute('#frontier', 'aria-activedescendant'));
  }
  assert.equal(reached, Array.from({ length: count }, (_, i) => `point-${i}`));
  assert.is(await page.evaluate(() => document.activeElement.id), 'frontier', 'a key press lost the focus');
  await page.keyboard.press('Home');
  assert.is(await page.getAttribute('#frontier', 'aria-activedescendant'), 'point-0');
  await page.keyboard.press('ArrowUp'); // stays at the first
  assert.is(await page.getAttribute('#frontier', 'aria-activedescendant'), 'point-0');
  await page.keyboard.press('End');
  assert.is(await page.getAttribute('#frontier', 'aria-activedescendant'), `point-${count - 1}`);
  assert.is(await page.getAttribute(`#point-${count - 1}`, 'aria-selected'), 'true');
  // Tab leaves the chart at once: no point is a stop of its own
  await page.keyboard.press('Tab');
  assert.not.ok(await page.evaluate(() => document.getElementById('plot').contains(document.activeElement)));
  assert.equal(seen.problems, []);
});

chart('a point chosen sets the cards and the sum to report\'s for its flags; the table lists the same points in engine terms', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#per=8&budget=16&rules=lesson'));
  const rules = [...LESSON_70B, '--per-server', '8', '--between', 'ib-ndr'];
  const native = planOf(rules, 16);
  const before = await page.textContent('#time');
  const last = native.frontier[native.frontier.length - 1];
  await page.click(`#point-${native.frontier.length - 1}`);
  const row = reportRow([...rules, ...last.flags.split(' ')]);
  assert.is(await page.textContent('#time'), row.view.time);
  assert.is(await page.textContent('#memory'), row.view.memory);
  assert.is.not(row.view.time, before, 'the test needs a point whose figures differ from the controls\'');
  const sums = execFileSync(GPUSPLIT, ['report', ...rules, ...last.flags.split(' '), '--explain', '--gpus', String(last.gpus)], { encoding: 'utf8' });
  assert.ok(sums.endsWith(await page.textContent('#explain')), 'the sum is not the point\'s');
  // the table: one row a point, its flags as the plan's, its layout in engine terms
  const table = await page.evaluate(() => [...document.querySelectorAll('#plan-table tr')].map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(table.map((r) => r[7]), native.frontier.map((p) => p.flags));
  for (const [i, r] of table.entries()) {
    const p = native.frontier[i];
    // by hand from the flags (csrc/emit/launch.c): slices = TP n, groups = PP n, slices-groups over servers of 8 = TP 8 x PP n/8
    const cut = p.split === 'groups' ? `PP ${p.gpus}` : p.split === 'slices-groups' && p.gpus > 8 ? `TP 8 × PP ${p.gpus / 8}` : `TP ${p.gpus}`;
    assert.ok(r[0].startsWith(`${cut}, batch ${p.words}`), `${r[0]} for ${p.flags}`);
    assert.not.ok(r[0].includes('EP') || r[1].includes('expert'), 'a dense model\'s layout names experts');
  }
  assert.is(table[table.length - 1][8], 'chosen');
  // choosing in the table chooses on the chart
  await page.evaluate(() => { document.querySelector('#plan-table').closest('details').open = true; });
  await page.click('#plan-table tr:first-child .ex-choose');
  assert.is(await page.getAttribute('#frontier', 'aria-activedescendant'), 'point-0');
  assert.is(await page.textContent('#time'), reportRow([...rules, ...native.frontier[0].flags.split(' ')]).view.time);
  assert.equal(seen.problems, []);
});

chart('a budget that holds no layout names the fewest GPUs that would, and its button searches them', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#model=405b&budget=8&rules=lesson'));
  const native = planOf(['--model', '405b', '--gpu', 'h100-sxm', '--link', 'nvlink4', '--assume', 'lesson'], 8);
  assert.is(native.frontier.length, 0);
  const fewest = Number(native.why.match(/the fewest that hold it are (\d+)/)[1]);
  assert.ok(await page.isVisible('#plan-fewest'));
  assert.is(await page.textContent('#fewest-text'), `A budget of 8 GPUs holds no layout of this model: it needs at least ${fewest}.`);
  await page.click('#use-fewest');
  assert.is(await page.inputValue('#budget'), String(fewest));
  const found = planOf(['--model', '405b', '--gpu', 'h100-sxm', '--link', 'nvlink4', '--assume', 'lesson'], fewest);
  assert.ok(found.frontier.length > 0);
  assert.is(await page.locator('#frontier .ex-point').count(), found.frontier.length);
  assert.not.ok(await page.isVisible('#plan-fewest'));
  assert.equal(seen.problems, []);
});

chart('the widget\'s link from its 405B view opens the explorer on a budget that holds the model', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=8&split=slices'));
  const href = await page.getAttribute('#explore', 'href');
  assert.match(href, /&budget=\d+$/);
  const explorer = await openPage(ctx, new URL(href, page.url()).href);
  await explorer.page.waitForFunction(() => document.getElementById('plan-found').textContent.includes('layouts tried'));
  assert.ok(await explorer.page.locator('#frontier .ex-point').count() > 0, await explorer.page.textContent('#plan-found'));
  assert.not.ok(await explorer.page.isVisible('#plan-fewest'));
  assert.equal(seen.problems, []);
  assert.equal(explorer.seen.problems, []);
});

// Llama 3.1 8B's shape with block-quantized FP8, which the reader does not count for Llama
// (Qwen3's and DeepSeek's FP8 it counts, scales and all).
const LLAMA_FP8 = JSON.stringify({
  architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 4096, intermediate_size: 14336, num_attention_heads: 32,
  num_hidden_layers: 32, num_key_value_heads: 8, vocab_size: 128256, tie_word_embeddings: false, torch_dtype: 'bfloat16',
  quantization_config: { activation_scheme: 'dynamic', fmt: 'e4m3', quant_method: 'fp8', weight_block_size: [128, 128] },
});

chart('a pasted FP8 config the reader cannot count names the bits that price it, clears the 70B\'s figures, and the list says "your config.json"', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html'));
  await page.fill('#config', LLAMA_FP8);
  const said = await page.textContent('#model-status');
  assert.ok(said.includes('--bits 8') && said.includes('leaving out') && said.endsWith('Here, that is 8 in "Bits a weight".'), said);
  assert.is(await page.textContent('#memory'), '—');
  assert.is(await page.locator('#frontier .ex-point').count(), 0);
  assert.is(await page.evaluate(() => document.getElementById('model').selectedOptions[0].textContent), 'your config.json');
  // what it named prices it
  await page.fill('#bits', '8');
  assert.is(await page.textContent('#model-status'), 'Using your config.json.');
  assert.ok((await page.textContent('#memory')).endsWith('GiB'));
  assert.is(await page.evaluate(() => document.getElementById('model').selectedOptions[0].textContent), 'your config.json');
  // a catalogue model chosen ends the pasted config
  await page.selectOption('#model', '8b');
  assert.is(await page.inputValue('#config'), '');
  assert.is(await page.locator('#model option[value=""]').count(), 0);
  assert.equal(seen.problems, []);
});

chart.run();

// axe-core, injected: this suite's context bypasses the page's CSP to do so (as a11y.test.mjs).
const axeSource = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const a11y = browserSuite('the plan chart, as axe-core sees it', { contextOptions: { bypassCSP: true } });

for (const colorScheme of ['light', 'dark']) {
  a11y(`in the ${colorScheme} scheme axe finds no violation with the chart focused, a point chosen, the table open, and a budget too small`, async (ctx) => {
    // real rules (the default: the rules' switch, the engine's select), the lesson's (the
    // select disabled, the switches the person's own), and a budget too small
    for (const fragment of ['#budget=16&per=8', '#budget=16&per=8&rules=lesson', '#model=405b&budget=8']) {
      const { page, seen } = await openPage(ctx, fileUrl('explorer.html', fragment));
      await page.emulateMedia({ colorScheme });
      if (await page.locator('#frontier .ex-point').count()) {
        await page.focus('#frontier');
        await page.keyboard.press('End');
      }
      await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
      await page.addScriptTag({ content: axeSource });
      const result = await page.evaluate(() => window.axe.run(document));
      assert.equal(result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), [], fragment);
      assert.equal(seen.problems, []);
    }
  });
}

a11y.run();
