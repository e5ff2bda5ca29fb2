// `make bench`: prints, from one run, (a) the time from an input event to the updated
// figures in Chromium, (b) the time from load to the first figures, (c) the wasm's time
// over a sweep of 1,001,472 settings against the native build's over the same sweep, and
// (d) the byte sizes of what ships. It only reports; nothing here asserts a time.
// Needs build/bench_native (tests/bench/bench_native.c), build/gpusplit.wasm and
// web/widget.html. Usage: node tests/bench/run.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openModule, MODEL_KEYS, LINK_KEYS, SPLIT_KEYS } from '../../web/src/module.js';
import { FIELDS, fileUrl, openBrowser, ready, ROOT } from '../browser/harness.mjs';

const RUNS = 3; // each sweep's time is the best of this many
const MAX_N = 64; // the sweep of tests/bench/bench_native.c
const MAX_WORDS = 1304;
const CHANGES_PER_GROUP = 120; // five groups: 600 changes
const LOADS = 25;

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const rank = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)];
// performance.now() in a page that is not cross-origin isolated ticks in 0.1 ms
const ms = (x) => `${x.toFixed(1)} ms`;
const spread = (xs) => `median ${ms(rank(xs, 0.5))}, p95 ${ms(rank(xs, 0.95))}, max ${ms(rank(xs, 1))} (n = ${xs.length})`;
const line = (label, text) => console.log(`  ${label.padEnd(40)} ${text}`);

function best(sweep) {
  let fastest = Infinity;
  let result;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    result = sweep();
    fastest = Math.min(fastest, (performance.now() - start) / 1000);
  }
  return { s: fastest, ...result };
}

// The bits of a double, as bench_native prints them.
const bitsOf = (x) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
};

// (c) the wasm side: the raw export, and the widget's reader (web/src/module.js), whose
// setting() also decodes the ten strings.
async function wasmSweeps() {
  const bytes = readFileSync(join(ROOT, 'build', 'gpusplit.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const w = instance.exports;
  if (w._initialize) w._initialize();
  const numbers = new Float64Array(w.memory.buffer, w.numbers_buffer(), 8);
  const raw = best(() => {
    let settings = 0, refused = 0, sum = 0;
    for (let model = 0; model < MODEL_KEYS.length; model++) {
      for (let link = 0; link < LINK_KEYS.length; link++) {
        if (w.use_builtin(model, link) !== 0) throw new Error('use_builtin failed');
        for (let split = 0; split < SPLIT_KEYS.length; split++) {
          for (let n = 1; n <= MAX_N; n++) {
            for (let words = 1; words <= MAX_WORDS; words++) {
              settings++;
              if (w.setting(n, split, words) !== 0) refused++;
              else sum += numbers[2];
            }
          }
        }
      }
    }
    return { settings, refused, checksum: bitsOf(sum) };
  });
  const module = await openModule(bytes);
  const reader = best(() => {
    let settings = 0, sum = 0;
    for (const model of MODEL_KEYS) {
      for (const link of LINK_KEYS) {
        module.useBuiltin(model, link);
        for (const split of SPLIT_KEYS) {
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

// (a) and (b) in Chromium.
async function browserTimes() {
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));

    // (b): a script that runs before the page's own notes when #memory first holds a figure
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const memory = document.getElementById('memory');
        if (memory && memory.textContent !== '…' && memory.textContent !== '') {
          window.__firstFigures = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const loads = [];
    for (let i = 0; i < LOADS; i++) {
      await page.goto(fileUrl('widget.html'));
      await page.waitForFunction(() => window.__firstFigures !== undefined);
      loads.push(await page.evaluate(() => window.__firstFigures));
    }
    await ready(page);

    // (a1): trusted key presses (ArrowRight in each radio group in turn), from the
    // keydown's timeStamp to the moment #time has changed and the page is laid out
    await page.evaluate(() => {
      window.__latency = [];
      let start = null;
      document.addEventListener('keydown', (event) => { start = event.timeStamp; }, true);
      new MutationObserver(() => {
        if (start === null) return;
        document.getElementById('chart').getBoundingClientRect(); // force style and layout
        window.__latency.push(performance.now() - start);
        start = null;
      }).observe(document.getElementById('time'), { childList: true, characterData: true, subtree: true });
    });
    for (let group = 0; group < FIELDS.length; group++) {
      await page.keyboard.press('Tab');
      for (let i = 0; i < CHANGES_PER_GROUP; i++) await page.keyboard.press('ArrowRight');
    }
    const keys = await page.evaluate(() => window.__latency);

    // (a2): change events dispatched inside the page, one radio after another, from just
    // before dispatch to the figures laid out: the widget's own share of (a1)
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
    return { loads, keys, dispatched, problems };
  } finally {
    await browser.close();
  }
}

const native = JSON.parse(execFileSync(join(ROOT, 'build', 'bench_native'), [String(RUNS)], { encoding: 'utf8' }));
const wasm = await wasmSweeps();
const chrome = await browserTimes();
const chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

console.log(`gpusplit bench (${chromium}; Node ${process.version}; times are the best of ${RUNS} sweeps)`);
console.log('(a) input event to updated figures, in Chromium');
line('key press (trusted), to #time laid out:', spread(chrome.keys));
line('change event dispatched in the page:', spread(chrome.dispatched));
console.log('(b) load to first figures (#memory not "…")');
line('from navigation start:', spread(chrome.loads));
console.log(`(c) one sweep of ${native.settings.toLocaleString('en')} settings (3 models x 2 links x 2 splits x 1-${MAX_N} GPUs x 1-${MAX_WORDS} words)`);
line('native, csrc/wasm.c setting() (-O2):', `${native.export_s.toFixed(3)} s`);
line('native, gs_word_time + gs_view_make:', `${native.view_s.toFixed(3)} s`);
line('wasm, setting() export (-Oz), Node:', `${wasm.raw.s.toFixed(3)} s`);
line('wasm, module.js openModule().setting():', `${wasm.reader.s.toFixed(3)} s (decodes the 10 strings too)`);
line('ratio wasm / native, same setting():', `${(wasm.raw.s / native.export_s).toFixed(2)}`);
line('ratio module.js / native setting():', `${(wasm.reader.s / native.export_s).toFixed(2)}`);
const agree = native.checksum === wasm.raw.checksum && native.checksum === wasm.reader.checksum && native.settings === wasm.raw.settings;
line('sum of every total time, bits:', `native ${native.checksum}, wasm ${wasm.raw.checksum}, module.js ${wasm.reader.checksum} (${agree ? 'equal' : 'DIFFERENT'})`);
console.log('(d) sizes');
for (const file of ['build/gpusplit.wasm', 'web/widget.html']) {
  const body = readFileSync(join(ROOT, file));
  line(`${file}:`, `${body.length.toLocaleString('en')} bytes (${gzipSync(body, { level: 9 }).length.toLocaleString('en')} gzipped)`);
}
if (chrome.problems.length) console.log(`console problems during the bench: ${chrome.problems.join('; ')}`);
