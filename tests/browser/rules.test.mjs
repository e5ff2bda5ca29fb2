// One set of rules everywhere (issue 30): the explorer opens on real hardware's rules for a
// catalogue GPU and says so in report's own Assumptions line; its switch gives the lesson's
// rules; and on 20 settings (catalogue models and two pasted configs, GPUs, counts, bits,
// chats at once, engines, a typed figure) every figure it shows is the one `gpusplit report
// --json` prints for the same settings under each rule, digit for digit, with report's
// sums. Every expected figure comes from running report here.
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSuite, fileUrl, fragmentOf, openPage, ROOT } from './harness.mjs';

const GPUSPLIT = join(ROOT, 'build', 'gpusplit');
const run = (flags) => execFileSync(GPUSPLIT, ['report', ...flags], { encoding: 'utf8' });
const reportJson = (flags) => JSON.parse(run([...flags, '--json']));
// --explain's sums without the header: the text after its first blank line.
const sums = (flags, n) => {
  const text = run([...flags, '--explain', '--gpus', String(n)]);
  return text.slice(text.indexOf('\n\n') + 2);
};
// The configs pasted: data/models/ holds the shared reference's configs byte for byte
// (../shared/reference/configs/mixtral-8x7b.json and qwen3-8b.json).
const CONFIGS = { mixtral: join(ROOT, 'data', 'models', 'mixtral-8x7b.json'), qwen3: join(ROOT, 'data', 'models', 'qwen3-8b.json') };

// The page's settings (its fragment's names) and report's flag for each. The page always
// names a link within and between servers, so report is given both.
const PAGE = { model: '70b', gpu: 'h100-sxm', link: 'nvlink4', between: 'ib-ndr' };
const FLAG = { model: '--model', bits: '--bits', gpu: '--gpu', gbw: '--gpu-bw', link: '--link', per: '--per-server',
  between: '--between', split: '--split', words: '--words', tokens: '--chat-tokens', cbits: '--cache-bits' };
const SWITCH = { overlap: '--overlap', cpc: '--cache-per-chat', auto: ['--nccl', 'auto'] };

// 20 settings: n is the count shown; paste, a config pasted into the page; engine, the
// engine's fitted efficiency (real rules only: the lesson's rules price at the peaks).
const SETTINGS = [
  { n: '4' },
  { model: '8b', gpu: 'h200', n: '1' },
  { gpu: 'a100-80gb-sxm', link: 'nvlink3', words: '64', n: '8', cpc: '1', auto: '1' },
  { model: 'qwen3-30b-a3b', bits: '8', n: '2' },
  { model: 'deepseek-v3', gpu: 'h200', words: '16', n: '16' },
  { model: 'gpt-oss-120b', gpu: 'b200', link: 'nvlink5', n: '2' },
  { model: 'mixtral-8x7b', gpu: 'l40s', link: 'pcie4', bits: '4', n: '4' },
  { model: 'llama-3.3-70b', words: '128', engine: 'vllm', n: '8' },
  { model: '8b', words: '32', engine: 'trt-llm', n: '1' },
  { model: 'qwen3-32b', gpu: 'a100-40gb-sxm', link: 'nvlink3', tokens: '32768', engine: 'sglang', n: '4' },
  { gpu: 'mi300x', link: 'infinity-fabric', words: '8', n: '4' },
  { model: 'gemma-2-27b', gpu: 'l4', link: 'pcie4', cbits: '8', n: '4' },
  { model: '405b', gpu: 'h200', split: 'slices-groups', per: '8', n: '16' },
  { model: 'phi-4', gpu: 'rtx-4090', link: 'pcie4', engine: 'median', n: '2' },
  { split: 'groups', words: '8', overlap: '1', n: '4' },
  { paste: 'mixtral', n: '2' },
  { paste: 'qwen3', gpu: 'h200', engine: 'none', words: '4', n: '1' },
  { gtyped: '1', gbw: '2e12', words: '64', n: '8' },
  { model: 'qwen3-235b-a22b', gpu: 'b200', link: 'nvlink5', bits: '4', words: '64', n: '8' },
  { model: '8b', gpu: 'lesson', link: 'fast', words: '4', n: '2' },
];

// report's flags for a setting under rules ('real' or 'lesson').
function flagsOf(setting, rules) {
  const s = { ...PAGE, ...setting };
  const flags = ['--assume', rules];
  for (const [field, flag] of Object.entries(FLAG)) if (s[field] !== undefined && (field !== 'model' || !s.paste)) flags.push(flag, s[field]);
  if (s.paste) flags.push('--model', CONFIGS[s.paste]);
  for (const [field, flag] of Object.entries(SWITCH)) if (s[field] === '1') flags.push(...[].concat(flag));
  if (s.engine && rules === 'real') flags.push('--engine', s.engine);
  return flags;
}

const fragmentFor = (setting, rules) => {
  const { paste, ...fields } = setting;
  return '#' + new URLSearchParams({ ...fields, ...(rules ? { rules } : {}) }).toString();
};

// What the page shows now.
const shown = (page) => page.evaluate(() => {
  const text = (id) => document.getElementById(id).textContent;
  const found = text('searches').match(/Fewest GPUs that fit \(▲\): (\d+|none)[^.]*\. Best count \(★\): (\d+|none)\./) || [];
  return {
    rules: document.querySelector('input[name=rules]:checked')?.value, assumptions: text('assumptions'),
    memory: text('memory'), parts: text('parts'), usable: text('usable-note'), time: text('time'), timeParts: text('time-parts'),
    speed: text('speed'), waiting: text('waiting'), machine: text('machine'), fewest: found[1], best: found[2],
    table: [...document.querySelectorAll('#table tr')].map((tr) => [...tr.children].slice(0, 3).map((td) => td.textContent)),
    explain: text('explain'), engine: text('engine-status'),
    statuses: ['model-status', 'gpu-status', 'link-status', 'plan-status'].map((id) => text(id)),
  };
});

// What the page must show, from report run with flags; counts: those the page's table lists.
function expected(flags, n, counts, rules) {
  const cli = reportJson([...flags, '--counts', [...new Set([...counts, n])].join(',')]);
  const rows = new Map(cli.rows.map((r) => [r.gpus, r]));
  const row = rows.get(n);
  const v = row.view;
  const servers = row.servers === 1 ? '1 server' : `${row.servers} servers`;
  return {
    rules, assumptions: `Assumptions: ${cli.assumptions}`,
    memory: v.memory, parts: `weights ${v.weights}, cache ${v.cache}, working ${v.working}`,
    usable: `of ${v.usable} a GPU can use${row.fits ? '' : ': it does not fit'}`, time: v.time,
    timeParts: row.fits ? `reading ${v.read}, waiting ${v.transfer}` : '',
    speed: row.fits ? `${v.words_per_s} words a second for each chat, ${v.words_all} for all of them` : '',
    // NCCL's protocol, as report's table names it: only while NCCL's rules price (--nccl auto)
    waiting: row.fits ? v.waiting : '—', machine: row.fits && row.protocol && cli.nccl === 'auto' ? `${servers}; NCCL's ${row.protocol} protocol` : servers,
    fewest: String(cli.fewest ?? 'none'), best: String(cli.best ?? 'none'),
    table: counts.map((g) => [String(g), rows.get(g).fits ? 'yes' : 'no', rows.get(g).view.time]),
    explain: sums(flags, n),
    engine: rules === 'real' ? `Achieved efficiency: ${cli.efficiency.from ?? 'none, the GPU\'s peaks'}.`
      : 'The lesson\'s rules price at the GPU\'s peaks: no engine\'s efficiency.',
  };
}

async function pasteInto(page, setting) {
  if (!setting.paste) return;
  await page.fill('#config', readFileSync(CONFIGS[setting.paste], 'utf8'));
  await page.waitForFunction(() => document.getElementById('model-status').textContent.startsWith('Using your config.json'));
}

async function assertAsReport(page, setting, rules, message) {
  const { statuses, ...now } = await shown(page);
  const counts = now.table.map(([g]) => Number(g));
  assert.ok(counts.length > 0, `${message}: no count in the table`);
  assert.equal(now, expected(flagsOf(setting, rules), Number(setting.n), counts, rules), message);
  assert.equal(statuses.slice(1), ['', '', ''], `${message}: ${statuses}`);
}

const rules = browserSuite('the explorer\'s rules, held to gpusplit report');

rules('it opens on real rules for a catalogue GPU and says so, and on the lesson\'s for the lesson\'s GPU', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html'));
  await assertAsReport(page, SETTINGS[0], 'real', 'no fragment');
  assert.match(await page.textContent('#assumptions'), /^Assumptions: real: /);
  assert.ok(await page.isChecked('#rules-real'));
  // the widget's link names the lesson's GPU: the lesson's rules, as report --gpu lesson
  const widget = await openPage(ctx, fileUrl('explorer.html', '#model=405b&gpu=lesson&link=fast&split=groups&words=1&n=16'));
  assert.ok(await widget.page.isChecked('#rules-lesson'));
  assert.is(await widget.page.textContent('#assumptions'), `Assumptions: ${reportJson(['--model', '405b', '--gpu', 'lesson']).assumptions}`);
  assert.equal([...seen.problems, ...widget.seen.problems], []);
});

rules('the switch, by keyboard, shows the lesson\'s figures, keeps them in the address, and back', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#model=8b&n=2&words=16'));
  const setting = { model: '8b', n: '2', words: '16' };
  await assertAsReport(page, setting, 'real', 'real');
  assert.is(await page.getAttribute('#rules-real', 'aria-describedby'), 'rules-note');
  await page.focus('#rules-real');
  await page.keyboard.press('ArrowDown'); // a radio group: the arrows move the choice
  assert.ok(await page.isChecked('#rules-lesson'));
  await assertAsReport(page, setting, 'lesson', 'after the switch');
  // real rules' own switches are held (ticked, fixed); the lesson's leave the person's own
  assert.not.ok(await page.isChecked('#cpc'));
  assert.not.ok(await page.isDisabled('#cpc'));
  await fragmentOf(page);
  assert.match(page.url(), /[#&]rules=lesson(&|$)/);
  const again = await openPage(ctx, page.url());
  await assertAsReport(again.page, setting, 'lesson', 'from the address');
  await again.page.check('#rules-real');
  await assertAsReport(again.page, setting, 'real', 'switched back');
  assert.ok(await again.page.isChecked('#cpc'));
  assert.ok(await again.page.isDisabled('#cpc'));
  assert.equal([...seen.problems, ...again.seen.problems], []);
});

rules('an address written before the switch opens on the GPU\'s own rules, its ticks kept for the lesson\'s', async (ctx) => {
  const old = '#model=qwen3-30b-a3b&gpu=h100-sxm&link=nvlink4&cpc=1&auto=1&n=8';
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', old));
  await assertAsReport(page, { model: 'qwen3-30b-a3b', cpc: '1', auto: '1', n: '8' }, 'real', 'an old address');
  await page.check('#rules-lesson');
  assert.ok(await page.isChecked('#cpc'));
  assert.not.ok(await page.isChecked('#rcache'));
  await assertAsReport(page, { model: 'qwen3-30b-a3b', cpc: '1', auto: '1', n: '8' }, 'lesson', 'the lesson\'s, with its ticks');
  assert.equal(seen.problems, []);
});

for (const rule of ['real', 'lesson']) {
  rules(`on 20 settings under the ${rule === 'real' ? 'real' : 'lesson\'s'} rules, every figure shown is report --json's`, async (ctx) => {
    let checked = 0;
    for (const setting of SETTINGS) {
      const { page, seen } = await openPage(ctx, fileUrl('explorer.html', fragmentFor(setting, rule)));
      await pasteInto(page, setting);
      await assertAsReport(page, setting, rule, `${rule}: ${JSON.stringify(setting)}`);
      assert.equal(seen.problems, []);
      await page.close();
      checked++;
    }
    assert.is(checked, 20);
  });
}

rules('report keeps real rules with a typed figure, and names it; so does the explorer', async (ctx) => {
  const typed = reportJson(['--model', '70b', '--gpu', 'h100-sxm', '--counts', '8', '--words', '64', '--gpu-bw', '3.35e12']);
  const sheet = reportJson(['--model', '70b', '--gpu', 'h100-sxm', '--counts', '8', '--words', '64']);
  assert.is(typed.assume, 'real');
  assert.is(typed.assumptions, `${sheet.assumptions}; typed: 3,350 GB/s read`);
  assert.is(typed.rows[0].time.total, sheet.rows[0].time.total, 'the catalogue\'s own figure typed changes nothing');
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html', '#gtyped=1&gbw=2e12&n=8&words=64'));
  assert.match(await page.textContent('#assumptions'), /^Assumptions: real: .*; typed: 2,000 GB\/s read$/);
  assert.ok(await page.isChecked('#rules-real'));
  assert.equal(seen.problems, []);
});

rules.run();
