// `make bench`: prints, from one run, each figure as a ratio to a floor measured in the
// same run: (a) a key press to the updated figures in Chromium, against a key press to an
// empty handler on the same page, each on a page that has painted the last, and again
// back to back; (b) load to the first figures, against the same page
// without the module; (c) the wasm's sweep of 1,001,472 settings against the native
// build's, both by clang at -O2, run interleaved in pairs, in CPU time; and (d) the byte sizes of what
// ships against their budgets. It only reports; nothing here asserts a time.
// Needs build/bench_native_clang, build/bench.wasm and web/widget.html.
// Usage: node tests/bench/run.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { openModule, MODEL_KEYS, LINK_KEYS, SPLIT_KEYS } from '../../web/src/module.js';
import { SETTING } from '../../web/src/fields.js';
import { FIELDS, fileUrl, openBrowser, ready, ROOT } from '../browser/harness.mjs';

const RUNS = 5; // pairs of sweeps, native then wasm
const MAX_N = 64; // the sweep of tests/bench/bench_native.c
const MAX_WORDS = 1304;
const CHANGES_PER_GROUP = 120; // five groups: 600 changes
const SPLITS = 2; // the sweep's splits: slices and groups, as bench_native.c's
const LOADS = 25;

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const rank = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)];
// performance.now() in a page that is not cross-origin isolated ticks in 0.1 ms, the loads'
// (b); the presses of (a) run on an isolated copy, whose clock ticks in 5 us (ISOLATED)
const ms = (x, digits = 1) => `${x.toFixed(digits)} ms`;
const spread = (xs, digits = 1) =>
  `median ${ms(rank(xs, 0.5), digits)}, p95 ${ms(rank(xs, 0.95), digits)}, max ${ms(rank(xs, 1), digits)} (n = ${xs.length})`;
// (a)'s pages: web/widget.html served to the browser from a local origin (routed, no server)
// with COOP and COEP, so cross-origin isolated: Chromium then gives performance.now() and an
// event's timeStamp 5 us steps where a file: page has 0.1 ms ones, a tenth of the floor's
// press; at 0.1 ms the same page's ratio read 1.30, 1.55 and 1.70 in three runs of one
// sitting, and isolated 1.67, 1.66 and 1.57 (2026-12-07)
const ISOLATED = 'http://localhost:4173/';
const line = (label, text) => console.log(`  ${label.padEnd(40)} ${text}`);

// A sweep's CPU time, as bench_native.c counts the native one's: the wall clock of a sweep on
// a machine shared with other work moved by more than the gap it measures. Node's count is
// the process's, its compiler's threads included, so it can only make the wasm look slower.
function timed(sweep) {
  const start = process.cpuUsage();
  const result = sweep();
  const used = process.cpuUsage(start);
  return { s: (used.user + used.system) / 1e6, ...result };
}

// The bits of a double, as bench_native prints them.
const bitsOf = (x) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
};

// (c) the wasm side: the raw export, and the widget's reader (web/src/module.js), whose
// setting() also decodes the strings.
async function wasmSweeps() {
  const bytes = readFileSync(join(ROOT, 'build', 'bench.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const w = instance.exports;
  if (w._initialize) w._initialize();
  const numbers = new Float64Array(w.memory.buffer, w.setting_f64(), SETTING.f64);
  const total = SETTING.fields.find(([path]) => path === 'time.total')[2];
  const raw = () => timed(() => {
    let settings = 0, refused = 0, sum = 0;
    for (let model = 0; model < MODEL_KEYS.length; model++) {
      for (let link = 0; link < LINK_KEYS.length; link++) {
        if (w.use_builtin(model, link) !== 0) throw new Error('use_builtin failed');
        for (let split = 0; split < SPLITS; split++) {
          for (let n = 1; n <= MAX_N; n++) {
            for (let words = 1; words <= MAX_WORDS; words++) {
              settings++;
              if (w.show(n, split, words) !== 0) refused++;
              else sum += numbers[total];
            }
          }
        }
      }
    }
    return { settings, refused, checksum: bitsOf(sum) };
  });
  const module = await openModule(bytes);
  const reader = () => timed(() => {
    let settings = 0, sum = 0;
    for (const model of MODEL_KEYS) {
      for (const link of LINK_KEYS) {
        module.useBuiltin(model, link);
        for (const split of SPLIT_KEYS.slice(0, SPLITS)) {
          for (let n = 1; n <= MAX_N; n++) {
            for (let words = 1; words <= MAX_WORDS; words++) {
              settings++;
              sum += module.setting(n, split, words).time.total;
            }
          }
        }
      }
    }
    return { settings, checksum: bitsOf(sum) };
  });
  return { raw, reader };
}

// The native sweep, once, by clang at -O2.
const nativeSweep = () => JSON.parse(execFileSync(join(ROOT, 'build', 'bench_native_clang'), ['1'], { encoding: 'utf8' }));

// (c) interleaved pairs: native, then wasm, RUNS times; each pair's ratio.
async function pairedSweeps() {
  const sweeps = await wasmSweeps();
  const pairs = [];
  for (let i = 0; i < RUNS; i++) {
    const native = nativeSweep();
    const wasm = sweeps.raw();
    pairs.push({ native, wasm, ratio: wasm.s / native.export_s });
  }
  const reader = sweeps.reader();
  return { pairs, reader };
}

// (a) CHANGES_PER_GROUP presses of ArrowRight in each radio group in turn, on a fresh load
// of the widget; each from the keydown's timeStamp to #time changed and the page laid out.
// With `idle`, each press waits for two frames after the last, so it lands on a page that
// has painted, as a person's does (a held key repeats every 33 ms or so); without, presses
// follow each other as fast as the driver sends them, and each can wait for the paint of
// the one before.
async function pressKeys(page, { emptyHandler, idle }) {
  await openIsolated(page);
  await page.evaluate((empty) => {
    window.__latency = [];
    let start = null;
    document.addEventListener('keydown', (event) => { start = event.timeStamp; }, true);
    if (empty) {
      document.addEventListener('change', (event) => {
        event.stopPropagation();
        document.getElementById('time').textContent = `${event.target.name} ${event.target.value}`;
      }, true);
    }
    new MutationObserver(() => {
      if (start === null) return;
      document.getElementById('chart').getBoundingClientRect(); // force style and layout
      window.__latency.push(performance.now() - start);
      start = null;
    }).observe(document.getElementById('time'), { childList: true, characterData: true, subtree: true });
  }, emptyHandler);
  for (let group = 0; group < FIELDS.length; group++) {
    await page.keyboard.press('Tab');
    for (let i = 0; i < CHANGES_PER_GROUP; i++) {
      if (idle) await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await page.keyboard.press('ArrowRight');
    }
  }
  return page.evaluate(() => window.__latency);
}

// The widget on ISOLATED, refused unless the page is cross-origin isolated (a clock of
// 0.1 ms would be measured as if it were finer).
async function openIsolated(page) {
  await page.goto(`${ISOLATED}widget.html`);
  await ready(page);
  if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error(`bench: ${ISOLATED} is not cross-origin isolated`);
}

// (a) and (b) in Chromium.
async function browserTimes() {
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    const widgetBody = readFileSync(join(ROOT, 'web', 'widget.html'));
    await page.route(`${ISOLATED}**`, (route) => route.fulfill({
      status: 200, contentType: 'text/html; charset=utf-8', body: widgetBody,
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    }));
    const problems = [];
    // the floor page has no module to unpack, and says so: only the widget's own are problems
    const widgetPage = () => !page.url().includes('bench-without-module');
    page.on('console', (m) => { if ((m.type() === 'error' || m.type() === 'warning') && widgetPage()) problems.push(m.text()); });
    page.on('pageerror', (e) => { if (widgetPage()) problems.push(e.message); });

    // (b): a script that runs before the page's own notes when #memory first holds a
    // figure and, for the floor, when the page's script has shown #controls; both in the
    // observer's callback, so both are timed the same way
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const controls = document.getElementById('controls');
        if (window.__controlsShown === undefined && controls && !controls.hidden) window.__controlsShown = performance.now();
        const memory = document.getElementById('memory');
        if (memory && memory.textContent !== '…' && memory.textContent !== '') {
          window.__firstFigures = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
    });
    // the floor for (b): the same page without its module (and without the CSP that
    // allows the module's script by hash), to the moment its script shows the controls
    const widget = widgetBody.toString('utf8');
    const floorPage = join(ROOT, 'build', 'bench-without-module.html');
    // (the widget's module is its longest packed string, in base 85; its packed markup stays)
    const module85 = [...widget.matchAll(/"[#-~]{1000,}"/g)].map((m) => m[0]).sort((x, y) => y.length - x.length)[0];
    writeFileSync(floorPage, widget.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
      .replace(module85, '""'));
    const loads = [];
    const floorLoads = [];
    for (let i = 0; i < LOADS; i++) {
      await page.goto(fileUrl('widget.html'));
      await page.waitForFunction(() => window.__firstFigures !== undefined);
      loads.push(await page.evaluate(() => window.__firstFigures));
      await page.goto(pathToFileURL(floorPage).href);
      await page.waitForFunction(() => window.__controlsShown !== undefined);
      floorLoads.push(await page.evaluate(() => window.__controlsShown));
    }
    // (a1): trusted key presses (ArrowRight in each radio group in turn), from the
    // keydown's timeStamp to the moment #time has changed and the page is laid out
    const keys = await pressKeys(page, { emptyHandler: false, idle: true });
    // the floor for (a): the same key presses in the same radio groups of a fresh copy of
    // the page, whose change handler is replaced by an empty one: a capturing listener
    // stops each change before the widget sees it and only writes into #time. The radios
    // still move and restyle as they do for (a1).
    const floorKeys = await pressKeys(page, { emptyHandler: true, idle: true });
    const rushedKeys = await pressKeys(page, { emptyHandler: false, idle: false });
    const rushedFloorKeys = await pressKeys(page, { emptyHandler: true, idle: false });

    // (a2): change events dispatched inside the page, one radio after another, from just
    // before dispatch to the figures laid out: the widget's own share of (a1)
    await openIsolated(page);
    const dispatched = await page.evaluate((count) => {
      const radios = [...document.querySelectorAll('#controls input[type=radio]')];
      const out = [];
      for (let i = 0; i < count; i++) {
        const radio = radios[(i * 7) % radios.length];
        const start = performance.now();
        radio.checked = true;
        radio.dispatchEvent(new Event('change', { bubbles: true }));
        document.getElementById('chart').getBoundingClientRect();
        out.push(performance.now() - start);
      }
      return out;
    }, FIELDS.length * CHANGES_PER_GROUP);
    return { loads, floorLoads, keys, floorKeys, rushedKeys, rushedFloorKeys, dispatched, problems };
  } finally {
    await browser.close();
  }
}

const sweeps = await pairedSweeps();
const chrome = await browserTimes();
const chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const median = (xs) => rank(xs, 0.5);
const ratio = (x, floor) => `${(x / floor).toFixed(2)} times`;

console.log(`gpusplit bench (${chromium}; Node ${process.version}); each figure against a floor from this run`);
console.log(`(a) a key press on a painted page to the updated figures, ${chrome.keys.length} presses, the page cross-origin isolated (aim: within 1.5 times the floor)`);
line('key press to #time laid out:', spread(chrome.keys, 2));
line('floor, key press to an empty handler:', spread(chrome.floorKeys, 2));
line('ratio of medians:', ratio(median(chrome.keys), median(chrome.floorKeys)));
line('pressed back to back, widget:', spread(chrome.rushedKeys, 2));
line('pressed back to back, floor:', spread(chrome.rushedFloorKeys, 2));
line('ratio of medians, back to back:', ratio(median(chrome.rushedKeys), median(chrome.rushedFloorKeys)));
line('change event dispatched in the page:', spread(chrome.dispatched, 2));
console.log(`(b) load to the first figures, ${LOADS} loads (aim: within 1.15 times the floor)`);
line('widget, to #memory holding a figure:', spread(chrome.loads));
line('floor, the page without its module:', spread(chrome.floorLoads));
line('ratio of medians:', ratio(median(chrome.loads), median(chrome.floorLoads)));
const first = sweeps.pairs[0];
console.log(`(c) one sweep of ${first.native.settings.toLocaleString('en')} settings, native and wasm both by clang -O2, ${RUNS} interleaved pairs, CPU time (aim: 1.3)`);
sweeps.pairs.forEach((p, i) => line(`pair ${i + 1}: native, wasm:`, `${p.native.export_s.toFixed(3)} s, ${p.wasm.s.toFixed(3)} s: ${p.ratio.toFixed(2)}`));
line('median ratio wasm / native:', median(sweeps.pairs.map((p) => p.ratio)).toFixed(2));
line('module.js reader, one sweep:', `${sweeps.reader.s.toFixed(3)} s (decodes the strings too)`);
const agree = sweeps.pairs.every((p) => p.native.checksum === p.wasm.checksum && p.native.settings === p.wasm.settings) &&
  sweeps.reader.checksum === first.native.checksum;
line('sum of every total time, bits:', `native ${first.native.checksum}, wasm ${first.wasm.checksum} (${agree ? 'equal' : 'DIFFERENT'})`);
const serves = sweeps.pairs.map((p) => p.native);
const serveMedian = median(serves.map((n) => n.serve_s));
console.log(`(e) 10,000 requests simulated natively (70B on 2 H100 SXM, vLLM, 1,024 + 128 tokens, 256 in flight), ${RUNS} runs, CPU time (aim: under 100 ms)`);
line('median run:', `${(serveMedian * 1e3).toFixed(1)} ms (${first.native.serve_steps.toLocaleString('en')} steps)`);
line('floor, the same steps priced alone:', `${(median(serves.map((n) => n.serve_floor_s)) * 1e3).toFixed(1)} ms`);
line('ratio of medians:', ratio(serveMedian, median(serves.map((n) => n.serve_floor_s))));
console.log('(d) sizes, against their budgets');
for (const [file, budget] of [['web/widget.html', 28 * 1024], ['web/explorer.html', 128 * 1024], ['build/lesson.wasm', 0], ['build/gpusplit.wasm', 0]]) {
  let body;
  try { body = readFileSync(join(ROOT, file)); } catch { line(`${file}:`, 'not built'); continue; }
  const against = budget ? `: ${(body.length / budget).toFixed(2)} of its ${budget / 1024} KiB budget` : '';
  line(`${file}:`, `${body.length.toLocaleString('en')} bytes${against}`);
}
if (chrome.problems.length) console.log(`console problems during the bench: ${chrome.problems.join('; ')}`);
