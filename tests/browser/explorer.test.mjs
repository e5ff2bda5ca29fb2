// The explorer (web/explorer.html) in Chromium, held to `build/gpusplit report` run with the
// same settings: a catalogue model, a pasted config, a bad one, servers, a pasted
// nccl-tests log; then the keyboard, axe-core, two widths, an iframe and the network.
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { browserSuite, fileUrl, fragmentOf, openPage, requested, ROOT, screenshotPath } from './harness.mjs';
import { EVERY_COUNT, explain, refusal, report, reportText } from '../js/cli_report.mjs';

const data = (name) => join(ROOT, 'data', 'models', name);
const GPUSPLIT = join(ROOT, 'build', 'gpusplit');
const QWEN_MOE = data('qwen3-30b-a3b.json');
const LOG = join(ROOT, 'tests', 'nccl-tests', 'dgx_h100_8gpu_nvidia_dgxc.txt');
// The explorer opens on real rules for a catalogue GPU (tests/browser/rules.test.mjs holds
// it to report under both); these tests ask for the lesson's (#rules=lesson), as report
// does with --assume lesson, so that each switch they tick is the person's own.
const LESSON = '#rules=lesson';
// The page's address once the fragment write its last render scheduled has run (the
// explorer writes it in a task of its own, after the figures, as the widget does).
const settledUrl = async (page) => {
  await fragmentOf(page);
  return page.url();
};

const H100 = ['--assume', 'lesson', '--gpu', 'h100-sxm', '--link', 'nvlink4'];

// What the page shows now, as the report's table columns (figures without units).
const shown = (page) => page.evaluate(() => {
  const text = (id) => document.getElementById(id).textContent;
  const parts = text('parts').match(/^weights (\S+) GiB, cache (\S+) GiB, working (\S+) GiB$/) || [];
  const times = text('time-parts').match(/^reading (\S+) ms, waiting (\S+) ms$/) || [];
  const speed = text('speed').match(/^(\S+) words a second for each chat, (\S+) for all of them$/) || [];
  const found = text('searches').match(/Fewest GPUs that fit \(▲\): (\d+|none)[^.]*\. Best count \(★\): (\d+|none)\./) || [];
  return {
    n: Number(document.getElementById('n').value),
    memory: text('memory'), weights: parts[1], cache: parts[2], working: parts[3], time: text('time'),
    read: times[1], wait: times[2], waiting: text('waiting'), wordsPerS: speed[1], allWordsPerS: speed[2],
    machine: text('machine'), fewest: found[1], best: found[2],
    table: [...document.querySelectorAll('#table tr')].map((tr) => [...tr.children].map((td) => td.textContent)),
    explain: text('explain'),
    statuses: ['model-status', 'gpu-status', 'link-status', 'plan-status'].map((id) => text(id)),
  };
});

// What the page must show for the report run with flags at n GPUs; counts: those the
// plan can take (the page's table lists only those, and report refuses the others).
function expected(flags, n, counts = EVERY_COUNT) {
  // report refuses a flag given twice (csrc/read/flags.c): --assume once, from flags or here
  const rules = flags.includes('--assume') ? [] : ['--assume', 'lesson'];
  const cli = report([...rules, ...flags, '--counts', counts]);
  const row = cli.rows.get(n);
  const servers = row.servers === 1 ? '1 server' : `${row.servers} servers`;
  return {
    n, memory: `${row.total} GiB`, weights: row.weights, cache: row.cache, working: row.working,
    time: row.fits ? `${row.time} ms` : 'Does not fit', read: row.fits ? row.read : undefined, wait: row.fits ? row.wait : undefined,
    waiting: row.fits ? row.waiting : '—', wordsPerS: row.fits ? row.wordsPerS : undefined, allWordsPerS: row.fits ? row.allWordsPerS : undefined,
    machine: row.protocol ? `${servers}; NCCL's ${row.protocol} protocol` : servers,
    fewest: cli.fewest ? String(cli.fewest) : 'none', best: cli.best ? String(cli.best) : 'none',
    table: [...cli.rows.values()].map((r) => [String(r.gpus), r.fits ? 'yes' : 'no', r.fits ? `${r.time} ms` : 'Does not fit',
      [r.gpus === cli.fewest ? 'fewest that fit' : '', r.gpus === cli.best ? 'best' : '', r.gpus === n ? 'chosen' : ''].filter(Boolean).join(', ')]),
    explain: explain(flags, n),
  };
}

// Compares everything but the statuses, which each test checks itself.
async function assertShows(page, flags, n, message, counts) {
  const { statuses, ...now } = await shown(page);
  assert.equal(now, expected(flags, n, counts), message);
  return statuses;
}

// The GPU count by keyboard: Home on the slider, then ArrowRight n - 1 times.
async function chooseCount(page, n) {
  await page.focus('#n');
  await page.keyboard.press('Home');
  for (let i = 1; i < n; i++) await page.keyboard.press('ArrowRight');
  assert.is(await page.inputValue('#n'), String(n));
}

const explorer = browserSuite('the explorer, held to gpusplit report', { server: true });

explorer('a catalogue model chosen with the controls shows report\'s figures, every count, the fewest, the best and the sums', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  await page.selectOption('#model', 'qwen3-30b-a3b');
  await page.selectOption('#gpu', 'h100-sxm');
  await page.selectOption('#link', 'nvlink4');
  await chooseCount(page, 8);
  const flags = ['--model', 'qwen3-30b-a3b', ...H100];
  assert.equal(await assertShows(page, flags, 8), ['', '', '', '']);
  // the same setting with four chats, a cache each and NCCL's protocols, typed in
  await page.fill('#words', '4');
  await page.check('#cpc');
  await page.check('#auto');
  await assertShows(page, [...flags, '--words', '4', '--cache-per-chat', '--nccl', 'auto'], 8);
  // typed GPU figures start as the catalogue's, and one changed is the report's --gpu-bw
  await page.check('#gtyped');
  const sheet = reportText(['--gpu', 'h100-sxm']).match(/^GPU: H100 SXM, (\S+) GiB,/m);
  assert.is(await page.inputValue('#gib'), sheet[1], 'the typed memory does not start as the catalogue\'s');
  await page.fill('#gbw', '2e12');
  await assertShows(page, [...flags, '--words', '4', '--cache-per-chat', '--nccl', 'auto', '--gpu-bw', '2e12'], 8);
  // the fragment carries every setting: a new page on it shows the same
  const again = await openPage(ctx, await settledUrl(page));
  await assertShows(again.page, [...flags, '--words', '4', '--cache-per-chat', '--nccl', 'auto', '--gpu-bw', '2e12'], 8, 'from the link');
  assert.equal(seen.problems, []);
  assert.equal(again.seen.problems, []);
});

explorer('a pasted config.json is priced as report prices that file, and a small one travels in the link', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  const file = data('gpt-oss-20b.json');
  await page.fill('#config', readFileSync(file, 'utf8'));
  await chooseCount(page, 2);
  const statuses = await assertShows(page, ['--model', file, ...H100], 2);
  assert.equal(statuses, ['Using your config.json.', '', '', '']);
  assert.ok((await settledUrl(page)).includes('config='), 'the config is not in the link');
  const again = await openPage(ctx, await settledUrl(page));
  assert.is(await again.page.inputValue('#config'), readFileSync(file, 'utf8'));
  await assertShows(again.page, ['--model', file, ...H100], 2, 'from the link');
  // a config over 2 KB is used, and the page says the link cannot carry it
  const big = data('phi35-mini.json');
  assert.ok(readFileSync(big).length > 2048);
  await page.fill('#config', readFileSync(big, 'utf8'));
  const [model] = await assertShows(page, ['--model', big, ...H100], 2);
  assert.match(model, /cannot carry it/);
  assert.not.ok((await settledUrl(page)).includes('config='), 'a large config went into the link');
  assert.equal(seen.problems, []);
});

explorer('a bad config shows report\'s one-line message beside its box, and the page keeps working', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  const dir = mkdtempSync(join(tmpdir(), 'gpusplit-explorer-'));
  try {
    for (const text of ['{"model_type":"llama","hidden_size":0}', '{"hidden_size": 4096,', '{"model_type":"mllama","hidden_size":8}']) {
      const file = join(dir, 'config.json');
      writeFileSync(file, text);
      const cli = refusal(['--model', file]);
      assert.is(cli.status, 2);
      await page.fill('#config', text);
      const [model] = (await shown(page)).statuses;
      assert.is(`gpusplit: ${file}: ${model}`, cli.line, text);
      assert.not.ok(model.includes('\n'));
      assert.ok(await page.evaluate(() => document.getElementById('model-status').classList.contains('ex-bad')));
      // no other model's figures stand beside the refusal, and the list names the pasted config
      assert.is(await page.textContent('#memory'), '—', text);
      assert.is(await page.evaluate(() => document.getElementById('model').selectedOptions[0].textContent), 'your config.json');
    }
    // the config taken away, the catalogue model (70B) is priced, and the count still moves
    await page.fill('#config', '');
    await chooseCount(page, 5);
    await assertShows(page, ['--model', '70b', ...H100], 5, 'after the config');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(seen.problems, []);
});

explorer('a config.json dropped on its box is read as if pasted', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  await page.evaluate((text) => {
    const files = new DataTransfer();
    files.items.add(new File([text], 'config.json', { type: 'application/json' }));
    document.getElementById('config').dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
  }, readFileSync(QWEN_MOE, 'utf8'));
  await page.waitForFunction(() => document.getElementById('model-status').textContent !== '');
  await assertShows(page, ['--model', QWEN_MOE, ...H100], 4);
  assert.equal(seen.problems, []);
});

explorer('a typed figure out of range gives report\'s reason beside the GPU or the link, and the page keeps working', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  const cases = [['#gtyped', '#gib', '-1', '--gpu-gib', 1], ['#gtyped', '#gib', '1e30', '--gpu-gib', 1], ['#ltyped', '#lbw', '0', '--link-bw', 2]];
  for (const [box, field, value, flag, at] of cases) {
    await page.check(box);
    await page.fill(field, value);
    const cli = refusal([...H100, flag, value]);
    assert.is(cli.status, 2);
    const said = (await shown(page)).statuses[at];
    // the module names its field ("gpu gib"), the command line its flag; the reason is the same
    assert.is(cli.line.slice(cli.line.indexOf(': ', 'gpusplit: '.length) + 2), said.slice(said.indexOf(': ') + 2), `${flag} ${value}`);
    assert.is((await shown(page)).memory, '—');
    await page.uncheck(box);
    await assertShows(page, ['--model', '70b', ...H100], 4, 'after unchecking');
  }
  assert.equal(seen.problems, []);
});

explorer('only counts that divide the heads: the chart, the fewest and the best are report --divide-heads\'s', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  await page.check('#heads');
  const heads = Number(reportText(['--model', '70b']).match(/(\d+) heads,/)[1]);
  const dividing = Array.from({ length: 64 }, (_, i) => i + 1).filter((n) => heads % n === 0).join(',');
  await assertShows(page, ['--model', '70b', ...H100, '--divide-heads'], 4, 'dividing counts', dividing);
  // a count that does not divide them is priced, and the page says the chart leaves it out
  await chooseCount(page, 5);
  assert.match(refusal(['--model', '70b', ...H100, '--divide-heads', '--counts', '5']).line, /5 does not divide the \d+ heads/);
  assert.match((await shown(page)).statuses[3], /^5 GPUs do not divide the attention heads/);
  assert.is((await shown(page)).time, `${report(['--model', '70b', ...H100, '--counts', '5']).rows.get(5).time} ms`);
  assert.equal(seen.problems, []);
});

explorer('two servers of 8 H100s with a pasted Qwen3-MoE config give report\'s figures, split by slices and by slices and groups', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  await page.fill('#config', readFileSync(QWEN_MOE, 'utf8'));
  await page.fill('#per', '8');
  await page.selectOption('#between', 'ib-ndr');
  await chooseCount(page, 16);
  const flags = ['--model', QWEN_MOE, ...H100, '--per-server', '8', '--between', 'ib-ndr'];
  await assertShows(page, flags, 16);
  assert.is((await shown(page)).machine, '2 servers');
  await page.selectOption('#split', 'slices-groups');
  // slices-groups takes the counts within one server and those that fill whole servers of 8
  await assertShows(page, [...flags, '--split', 'slices-groups'], 16, 'slices-groups', '1,2,3,4,5,6,7,8,16,24,32,40,48,56,64');
  assert.equal(seen.problems, []);
});

explorer('a pasted nccl-tests log prices the link as report --link-from does; a bad one gives one line', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  await page.selectOption('#model', 'qwen3-30b-a3b');
  await page.fill('#log', readFileSync(LOG, 'utf8'));
  await chooseCount(page, 8);
  const statuses = await assertShows(page, ['--model', 'qwen3-30b-a3b', ...H100, '--link-from', LOG], 8);
  assert.match(statuses[2], /^Fitted to your log of 8 GPUs/);
  await page.fill('#log', '# nccl-tests\nnot a log\n');
  const [, , link] = await assertShows(page, ['--model', 'qwen3-30b-a3b', ...H100], 8);
  assert.match(link, /^[^\n]+$/);
  assert.ok(await page.evaluate(() => document.getElementById('link-status').classList.contains('ex-bad')));
  assert.equal(seen.problems, []);
});

explorer('Tab reaches every visible control, each once, and the arrow keys move the count', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  // a radio group is one stop, its chosen radio; a control the rules fix (disabled) is none;
  // the chart is one stop ([tabindex="0"]); what a closed <details> hides is none
  const controls = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, summary, button, [tabindex="0"]')]
    .filter((e) => e.getClientRects().length > 0 && !e.closest('details:not([open]) > :not(summary)') && !e.disabled
      && (e.type !== 'radio' || e.checked)).map((e) => e.id || e.textContent));
  const reached = [];
  for (let i = 0; i < controls.length + 5; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => (document.activeElement === document.body ? null
      : document.activeElement.id || document.activeElement.textContent));
    if (id === null || reached.includes(id)) break;
    reached.push(id);
  }
  assert.equal([...reached].sort(), [...controls].sort());
  await page.focus('#n');
  await page.keyboard.press('ArrowRight');
  await assertShows(page, ['--model', '70b', ...H100], 5);
  await page.focus('#sum summary');
  await page.keyboard.press('Enter');
  assert.ok(await page.evaluate(() => document.getElementById('sum').open));
  assert.equal(seen.problems, []);
});

// What is cut off or sticks out now, one line per element (as layout.test.mjs checks the widget).
const overflows = (page) => page.evaluate(() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '');
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > width + 0.5 || r.left < -0.5) out.push(`${name(e)} spans ${r.left}..${r.right} of ${width}`);
    if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) out.push(`${name(e)} holds ${e.scrollWidth} px in ${e.clientWidth}`);
  }
  return out;
});

// Every part shown: typed figures, a config error, servers, and both <details> open.
const EVERYTHING = '#model=deepseek-v3&gtyped=1&ltyped=1&per=8&split=slices-groups&words=64&cpc=1&auto=1&n=64&budget=32&target=40&rules=lesson';

for (const width of [360, 1280]) {
  explorer(`at ${width} px wide nothing is cut off or scrolls sideways, with every part shown`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('explorer.html', EVERYTHING));
    await page.setViewportSize({ width, height: 900 });
    assert.equal([await page.inputValue('#model'), await page.inputValue('#split')], ['deepseek-v3', 'slices-groups'], 'the fragment was not taken');
    await page.fill('#log', 'not a log');
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
    assert.equal(await overflows(page), []);
    await page.screenshot({ path: screenshotPath(`explorer-${width}.png`), fullPage: true });
    await page.fill('#config', '{"model_type": "llama", "hidden_size": "wide"}');
    assert.equal(await overflows(page), []);
    await page.screenshot({ path: screenshotPath(`explorer-${width}-bad-config.png`), fullPage: true });
    assert.equal(seen.problems, []);
  });
}

explorer('the plan\'s frontier is gpusplit plan\'s, and a point chosen shows its report flags and report\'s sums', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html',
    '#model=deepseek-v3&gpu=h200&link=nvlink4&per=8&cpc=1&rcache=1&heads=1&auto=1&budget=16&target=20&rules=lesson'));
  const rules = ['--model', 'deepseek-v3', '--gpu', 'h200', '--link', 'nvlink4', '--per-server', '8', '--between', 'ib-ndr',
    '--assume', 'lesson', '--cache-per-chat', '--read-cache', '--divide-heads', '--nccl', 'auto'];
  const native = JSON.parse(execFileSync(GPUSPLIT, ['plan', ...rules, '--gpus-max', '16', '--target-word-ms', '20', '--json'], { encoding: 'utf8' }));
  const points = await page.evaluate(() => [...document.querySelectorAll('#frontier .ex-point')].map((b) => b.title));
  assert.is(points.length, native.frontier.length);
  native.frontier.forEach((p, i) => assert.ok(points[i].endsWith(p.flags), `point ${i}: ${points[i]}`));
  // the target's choice is filled, and shown until another point is chosen
  assert.ok((await page.textContent('#layout-flags')).endsWith(native.choice.flags));
  const last = native.frontier[native.frontier.length - 1];
  await page.click(`#point-${native.frontier.length - 1}`);
  assert.ok((await page.textContent('#layout-flags')).endsWith(last.flags));
  const text = execFileSync(GPUSPLIT, ['report', ...rules, ...last.flags.split(' '), '--explain', '--gpus', String(last.gpus)], { encoding: 'utf8' });
  assert.ok(text.endsWith(await page.textContent('#layout-sums')));
  assert.ok((await page.textContent('#layout-sums')).length > 200);
  assert.equal(seen.problems, []);
});

// ---- The plan's hostile input (issue 28) ----
const LESSON_70B = ['--model', '70b', '--gpu', 'h100-sxm', '--link', 'nvlink4', '--assume', 'lesson'];
const planOf = (budget) => JSON.parse(execFileSync(GPUSPLIT, ['plan', ...LESSON_70B, '--gpus-max', String(budget), '--json'], { encoding: 'utf8' }));

explorer('a budget of 65,536 draws gpusplit plan\'s frontier and says which counts past 64 it searched', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#budget=65536&rules=lesson'));
  const native = planOf(65536);
  await page.waitForFunction(() => document.getElementById('plan-found').textContent.includes('layouts tried'));
  assert.is(await page.textContent('#plan-found'), `${native.tried} layouts tried; ${native.frontier.length} on the frontier. ${native.searched}.`);
  assert.is(await page.locator('#frontier .ex-point').count(), native.frontier.length);
  assert.equal(seen.problems, []);
});

explorer('typing a budget searches once, after the pause, not at every keystroke', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  const before = await page.textContent('#plan-found');
  assert.is(before, `${planOf(8).tried} layouts tried; ${planOf(8).frontier.length} on the frontier.`);
  // every text the search's line shows from now on
  await page.evaluate(() => {
    window.planTexts = [];
    const line = document.getElementById('plan-found');
    new MutationObserver(() => window.planTexts.push(line.textContent)).observe(line, { childList: true, characterData: true, subtree: true });
  });
  await page.click('#budget', { clickCount: 3 });
  await page.keyboard.type('65536'); // 6, 65, 655, 6553, 65536: one input each
  const native = planOf(65536);
  const after = `${native.tried} layouts tried; ${native.frontier.length} on the frontier. ${native.searched}.`;
  await page.waitForFunction((text) => document.getElementById('plan-found').textContent === text, after);
  const texts = [...new Set(await page.evaluate(() => window.planTexts.filter((t) => t !== '')))];
  assert.equal(texts, [before, after], 'a budget was searched while it was being typed');
  // leaving the box searches at once: 16, then Tab
  await page.click('#budget', { clickCount: 3 });
  await page.keyboard.type('16');
  await page.keyboard.press('Tab');
  assert.is(await page.textContent('#plan-found'), `${planOf(16).tried} layouts tried; ${planOf(16).frontier.length} on the frontier.`);
  assert.ok((await settledUrl(page)).includes('budget=16'));
  assert.equal(seen.problems, []);
});

explorer('a target of 0 is no target, and a budget out of range is refused with its real range', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#target=0&rules=lesson'));
  const text = await page.textContent('#plan-found');
  assert.is(text, `${planOf(8).tried} layouts tried; ${planOf(8).frontier.length} on the frontier.`);
  assert.is(await page.locator('#frontier .ex-chosen').count(), 0);
  for (const budget of ['0', '65537', 'many']) {
    const again = await openPage(ctx, fileUrl('explorer.html', `#budget=${budget}&rules=lesson`));
    assert.is(await again.page.textContent('#plan-found'), 'gpus_max: must be a whole number from 1 to 65536', budget);
    assert.equal(again.seen.problems, []);
  }
  assert.equal(seen.problems, []);
});

explorer('from file:// it asks for nothing but itself', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', EVERYTHING));
  await page.fill('#log', readFileSync(LOG, 'utf8'));
  await page.fill('#config', readFileSync(QWEN_MOE, 'utf8'));
  assert.equal(requested(seen), [fileUrl('explorer.html')]);
  assert.equal(seen.problems, []);
});

explorer('inside a sandboxed iframe it works and asks the server for itself only', async (ctx) => {
  const page = await ctx.browser.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.setContent(`<iframe sandbox="allow-scripts" title="explorer" src="${ctx.server.url('explorer.html', '#model=qwen3-30b-a3b&n=8&rules=lesson')}"></iframe>`);
  const frame = await (await page.$('iframe')).contentFrame();
  await frame.waitForFunction(() => !['…', ''].includes(document.getElementById('memory').textContent));
  const row = report(['--model', 'qwen3-30b-a3b', ...H100, '--counts', '8']).rows.get(8);
  assert.is(await frame.evaluate(() => document.getElementById('time').textContent), `${row.time} ms`);
  await frame.selectOption('#split', 'groups');
  assert.is(await frame.evaluate(() => document.getElementById('time').textContent),
    `${report(['--model', 'qwen3-30b-a3b', ...H100, '--split', 'groups', '--counts', '8']).rows.get(8).time} ms`);
  assert.equal(ctx.server.requests.filter((url) => !url.startsWith('/explorer.html')), []);
  assert.equal(problems, []);
});

// As the widget's (tests/browser/load.test.mjs): a fragment set from outside whose hashchange
// has not run yet is not written over by the write a change scheduled.
explorer('a fragment set from outside while its write waits is the view it shows, not written over', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', LESSON));
  await page.selectOption('#model', '8b');
  await page.evaluate(() => history.replaceState(null, '', '#rules=lesson&model=405b'));
  await fragmentOf(page);
  await page.evaluate(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
  assert.is(await page.inputValue('#model'), '405b');
  assert.match(await page.evaluate(() => location.hash), /model=405b/);
  assert.equal(seen.problems, []);
});

explorer.run();

// axe-core, injected: this suite's context bypasses the page's CSP to do so (as a11y.test.mjs).
const axeSource = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const a11y = browserSuite('the explorer, as axe-core sees it', { contextOptions: { bypassCSP: true } });

for (const colorScheme of ['light', 'dark']) {
  a11y(`in the ${colorScheme} scheme axe finds no violation, with every part and an error shown`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('explorer.html', EVERYTHING));
    await page.emulateMedia({ colorScheme });
    await page.fill('#config', '{"model_type":"llama"}');
    await page.fill('#log', 'not a log');
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(() => window.axe.run(document));
    assert.equal(result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), []);
    assert.equal(seen.problems, []);
  });
}

a11y.run();
