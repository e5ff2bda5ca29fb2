// `gpusplit plan` against a brute-force search over the same layouts through `report`:
// every count up to the budget that report accepts, every cut (slices, groups,
// slices-groups, experts spread, one batch in flight or one a group), and chats at once
// 1, 2, 3, 4, 6, 8, 12, ... up to report's chats_fit, each priced by its own report run.
// The frontier and the choice are then worked out here from those runs alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { openExplorer } from '../../web/src/explorer_module.js';

const GPUSPLIT = fileURLToPath(new URL('../../build/gpusplit', import.meta.url));
const BASE = ['--model', 'deepseek-v3', '--gpu', 'h200', '--link', 'nvlink4', '--per-server', '8', '--between', 'ib-ndr'];
const BUDGET = 32;

const plan = (flags) => JSON.parse(execFileSync(GPUSPLIT, ['plan', ...BASE, ...flags, '--json'], { encoding: 'utf8' }));

// One count of report as JSON, or null when report refuses the layout (exit 2).
function reportRow(flags) {
  const r = spawnSync(GPUSPLIT, ['report', ...BASE, ...flags, '--json'], { encoding: 'utf8' });
  if (r.status === 2) return null;
  if (r.status !== 0) throw new Error(`report ${flags.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout).rows[0];
}

// The ladder of chats written out: 1, 2, then each power of two times 1.5 and the next power.
function ladder(most) {
  const out = [];
  for (let p = 1; p <= most; p *= 2) {
    out.push(p);
    if (p >= 2 && p * 1.5 <= most) out.push(p * 1.5);
  }
  if (out.length && out[out.length - 1] !== most && most >= 1) out.push(most);
  return out.filter((w, i, a) => a.indexOf(w) === i && w <= most);
}

function bruteForce() {
  const layouts = [];
  for (let n = 1; n <= BUDGET; n++) {
    const servers = Math.ceil(n / 8);
    const cuts = [{ split: 'slices', experts: 'slices', flight: 1 }];
    if (n > 1) cuts.push({ split: 'slices', experts: 'spread', flight: 1 }, { split: 'groups', experts: 'slices', flight: 1 }, { split: 'groups', experts: 'slices', flight: n });
    if (servers > 1) cuts.push({ split: 'slices-groups', experts: 'slices', flight: 1 }, { split: 'slices-groups', experts: 'slices', flight: servers });
    for (const cut of cuts) {
      const flags = (w) => ['--counts', String(n), '--split', cut.split, '--experts', cut.experts, '--words', String(w),
        ...(cut.flight > 1 ? ['--in-flight', String(cut.flight)] : []), '--replicas', String(Math.floor(BUDGET / n))];
      const first = reportRow(flags(1));
      if (!first || !first.fits) continue;
      for (const w of ladder(first.deploy.chats_fit)) {
        const row = w === 1 ? first : reportRow(flags(w));
        if (!row.fits) continue;
        layouts.push({ n, ...cut, words: w, time: row.time.total, first: row.time.first_word, perGpu: row.deploy.words_per_s / row.deploy.gpus,
          total: row.deploy.words_per_s });
      }
    }
  }
  return layouts;
}

const layouts = bruteForce();

test('the ladder of chats is 1, 2, 3, 4, 6, 8, 12, ... and the most that fit', () => {
  assert.equal(ladder(20), [1, 2, 3, 4, 6, 8, 12, 16, 20]);
  assert.equal(ladder(16), [1, 2, 3, 4, 6, 8, 12, 16]);
  assert.equal(ladder(1), [1]);
});

test('the plan tried as many layouts as report prices', () => {
  const p = plan(['--gpus-max', String(BUDGET)]);
  assert.ok(layouts.length > 100, `${layouts.length} layouts`);
  assert.ok(p.tried >= layouts.length, `plan tried ${p.tried}, report priced ${layouts.length} that fit`);
});

test('the frontier is the brute force\'s: for each time a word, the most words a second a GPU', () => {
  const sorted = [...layouts].sort((a, b) => a.time - b.time || b.perGpu - a.perGpu);
  const frontier = [];
  for (const l of sorted) if (!frontier.length || l.perGpu > frontier[frontier.length - 1].perGpu) frontier.push(l);
  const p = plan(['--gpus-max', String(BUDGET)]);
  assert.equal(p.frontier.map((x) => [x.time_per_word, x.words_per_s_per_gpu]), frontier.map((x) => [x.time, x.perGpu]));
});

test('the Done-when plan marks the brute force\'s best layout within 50 ms a word', () => {
  const p = plan(['--gpus-max', String(BUDGET), '--target-word-ms', '50']);
  const within = layouts.filter((l) => l.time <= 0.05);
  const best = within.reduce((a, b) => (b.perGpu > a.perGpu || (b.perGpu === a.perGpu && b.time < a.time) ? b : a));
  assert.ok(p.choice, 'a choice');
  assert.is(p.why, null);
  assert.is(p.choice.words_per_s_per_gpu, best.perGpu);
  assert.is(p.choice.time_per_word, best.time);
  assert.is(p.choice.gpus, best.n);
  assert.is(p.choice.words, best.words);
  assert.is(p.choice.split, best.split);
  assert.is(p.choice.experts, best.experts);
});

test('a first-word target as well narrows the choice to layouts that meet both', () => {
  const p = plan(['--gpus-max', String(BUDGET), '--target-word-ms', '50', '--target-first-ms', '2000']);
  const both = layouts.filter((l) => l.time <= 0.05 && l.first <= 2);
  const best = both.reduce((a, b) => (b.perGpu > a.perGpu || (b.perGpu === a.perGpu && b.time < a.time) ? b : a));
  assert.is(p.choice.words_per_s_per_gpu, best.perGpu);
  assert.ok(p.choice.first_word <= 2);
});

test('a target no layout meets is refused with the fastest layout\'s time', () => {
  const p = plan(['--gpus-max', String(BUDGET), '--target-word-ms', '1']);
  const fastest = layouts.reduce((a, b) => (b.time < a.time ? b : a));
  assert.is(p.choice, null);
  assert.ok(p.why.includes(`takes ${(fastest.time * 1e3).toFixed(2)} ms a word`), p.why);
});

test('every frontier point is reproduced by report with its flags', () => {
  const p = plan(['--gpus-max', String(BUDGET), '--target-word-ms', '50']);
  for (const x of p.frontier) {
    const row = reportRow(x.flags.split(' '));
    assert.is(row.time.total, x.time_per_word, x.flags);
    assert.is(row.deploy.words_per_s, x.words_per_s, x.flags);
    assert.is(row.deploy.gpus, x.total_gpus, x.flags);
  }
});

test('replicas scale the total words a second linearly and leave each chat\'s time', () => {
  const one = reportRow(['--counts', '8', '--words', '16', '--replicas', '1']);
  for (const r of [2, 3, 4]) {
    const many = reportRow(['--counts', '8', '--words', '16', '--replicas', String(r)]);
    assert.is(many.deploy.words_per_s, r * one.deploy.words_per_s);
    assert.is(many.deploy.gpus, r * 8);
    assert.is(many.time.total, one.time.total);
  }
  // the plan's points at 8 GPUs a copy carry 32 / 8 = 4 replicas
  const p = plan(['--gpus-max', String(BUDGET)]);
  const at8 = p.frontier.filter((x) => x.gpus === 8);
  assert.ok(at8.length > 0);
  for (const x of at8) assert.is(x.replicas, 4);
});

test('the plan refuses the flags it chooses, and needs a budget', () => {
  for (const flags of [['--split', 'groups'], ['--words', '4'], ['--replicas', '2'], ['--experts', 'spread']]) {
    const r = spawnSync(GPUSPLIT, ['plan', ...BASE, '--gpus-max', '8', ...flags], { encoding: 'utf8' });
    assert.is(r.status, 2);
    assert.ok(r.stderr.includes('is what the plan chooses'), r.stderr);
  }
  const r = spawnSync(GPUSPLIT, ['plan', ...BASE], { encoding: 'utf8' });
  assert.is(r.status, 2);
  assert.ok(r.stderr.includes('--gpus-max'), r.stderr);
});

test('the explorer\'s module draws the frontier the command line prints, and each point\'s sums are report\'s', async () => {
  const m = await openExplorer(readFileSync(fileURLToPath(new URL('../../build/explorer.wasm', import.meta.url))));
  m.useModel(m.models.findIndex((x) => x.key === 'deepseek-v3'), 0);
  m.useGpuKey('h200');
  m.useLinkKey('nvlink4');
  m.useBetweenKey('ib-ndr');
  m.plan({ split: 'slices', words: 1, perServer: 8, chatTokens: 0, cacheBits: 0, cachePerChat: true, readCache: true, divideHeads: true, ncclAuto: true });
  const rules = ['--assume', 'lesson', '--cache-per-chat', '--read-cache', '--divide-heads', '--nccl', 'auto'];
  const native = plan([...rules, '--gpus-max', '16', '--target-word-ms', '20']);
  const drawn = m.frontier(16, 20, 0);
  assert.is(drawn.tried, native.tried);
  assert.equal(drawn.points.map((p) => [p.flags, p.word_s, p.per_gpu, p.words_per_s]),
    native.frontier.map((p) => [p.flags, p.time_per_word, p.words_per_s_per_gpu, p.words_per_s]));
  assert.is(drawn.choice.flags, native.choice.flags);
  // the chart's places: fastest first, so each point is up and to the left of the next
  drawn.points.slice(1).forEach((p, i) => assert.ok(p.x > drawn.points[i].x && p.y < drawn.points[i].y, p.flags));
  for (const p of [drawn.points[0], drawn.choice]) {
    const text = execFileSync(GPUSPLIT, ['report', ...BASE, ...rules, ...p.flags.split(' '), '--explain', '--gpus', String(p.gpus)], { encoding: 'utf8' });
    const sums = m.layout(p.index).sums;
    assert.ok(text.endsWith(sums), `${p.flags}: the module's sums are not the end of report --explain`);
  }
  const none = m.frontier(16, 0.5, 0);
  assert.is(none.choice, null);
  assert.ok(none.why.startsWith('the fastest layout within 16 GPUs takes'), none.why);
});

// ---- Hostile input (issue 28) ----
const explorerModule = async () => openExplorer(readFileSync(fileURLToPath(new URL('../../build/explorer.wasm', import.meta.url))));
const LESSON_H200 = ['--assume', 'lesson', '--gpu', 'h200', '--link', 'nvlink4'];
function useSetting(m, model, gpu = {}) {
  m.useModel(m.models.findIndex((x) => x.key === model), 0);
  const sheet = m.useGpuKey('h200');
  if (gpu.bandwidth) m.useGpu({ ...sheet, ...gpu });
  m.useLinkKey('nvlink4');
  m.useBetweenKey('ib-ndr');
  m.plan({ split: 'slices', words: 1, perServer: 0, chatTokens: 0, cacheBits: 0 });
}
const nativePlan = (flags) => JSON.parse(execFileSync(GPUSPLIT, ['plan', ...flags, '--json'], { encoding: 'utf8' }));

test('a budget of 65,536 in the explorer\'s module searches what the command line searches, and says which counts', async () => {
  const m = await explorerModule();
  useSetting(m, '8b');
  const native = nativePlan(['--model', '8b', ...LESSON_H200, '--gpus-max', '65536']);
  const drawn = m.frontier(65536, 0, 0);
  assert.is(drawn.tried, native.tried);
  assert.equal(drawn.points.map((p) => [p.flags, p.word_s, p.per_gpu]), native.frontier.map((p) => [p.flags, p.time_per_word, p.words_per_s_per_gpu]));
  assert.is(drawn.searched, native.searched);
  assert.ok(drawn.searched.startsWith('Past 64 GPUs a copy, only these'), drawn.searched);
  // within 64 GPUs every count is searched, and nothing is said
  assert.is(m.frontier(64, 0, 0).searched, '');
});

test('the module refuses a budget as a whole number from 1 to 65536, and takes a target of 0 as none', async () => {
  const m = await explorerModule();
  useSetting(m, '8b');
  for (const budget of [0, 65537, 2.5, NaN]) {
    assert.throws(() => m.frontier(budget, 0, 0), (e) => e.message === 'gpus_max: must be a whole number from 1 to 65536', String(budget));
  }
  assert.is(m.frontier(8, 0, 0).targeted, false);
  assert.is(m.frontier(8, 0, 0).why, '');
  assert.is(m.frontier(8, 20, 0).targeted, true);
});

test('where nothing fits the module says why, as the command line does', async () => {
  const m = await explorerModule();
  useSetting(m, '405b');
  const drawn = m.frontier(2, 0, 0);
  const native = nativePlan(['--model', '405b', ...LESSON_H200, '--gpus-max', '2']);
  assert.equal(drawn.points, []);
  assert.ok(native.why.startsWith('no layout within 2 GPUs holds the model'), native.why);
  assert.is(drawn.why, native.why);
});

test('on a slow typed GPU the points\' labels give a chat\'s words a second with report\'s digits', async () => {
  const m = await explorerModule();
  useSetting(m, '8b', { bandwidth: 1e6 });
  const [point] = m.frontier(1, 0, 0).points;
  const row = JSON.parse(execFileSync(GPUSPLIT, ['report', '--model', '8b', ...LESSON_H200, '--gpu-bw', '1e6', ...point.flags.split(' '), '--json'],
    { encoding: 'utf8' })).rows[0];
  assert.ok(Number(row.view.words_per_s) > 0 && row.view.words_per_s !== '0.0', row.view.words_per_s);
  assert.ok(point.figures.includes(`, ${row.view.words_per_s} words a second a chat,`), point.figures);
});

test.run();
