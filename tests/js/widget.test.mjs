// The committed single-file widget: a fresh build of today's C, self-contained, small,
// asking the network for nothing, with every element its script needs, and no
// arithmetic of its own.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openModule } from '../../web/src/module.js';
import { builtWith, inlinedModule, loadModule, nativeFixture, packedBody, packedPage, packedScript, path, toolchain, unpackedPage, wasmBytes, withoutModule } from './support.mjs';

const committed = readFileSync(path('web/widget.html'), 'utf8');
const fresh = readFileSync(path('build/widget.html'), 'utf8');
// the page as its script makes it, its packed markup in place
const whole = unpackedPage(committed);
const page = whole.slice(0, whole.indexOf('<script'));
const source = readFileSync(path('web/src/widget.js'), 'utf8');

const build = suite('the committed widget is a fresh build');
const made = builtWith('widget.html');
const here = toolchain();

// Bytes only where this machine builds the committed bytes (web/BUILT_WITH); elsewhere
// the page outside its module and the module's answers are held to today's build below.
if (made === here) {
  build('web/widget.html is byte for byte what `make widget` builds from today\'s sources', () => {
    assert.ok(committed === fresh, 'web/widget.html is stale: run make widget and commit it');
  });

  build('the wasm inside it is byte for byte build/lesson.wasm', () => {
    assert.ok(inlinedModule(committed), 'no base64 module found in the script');
    assert.ok(inlinedModule(committed).equals(wasmBytes('build/lesson.wasm')));
  });
} else {
  console.log(`widget.test: web/widget.html was built with ${made}, this machine has ${here}: `
    + 'another compiler or zopfli gives other bytes, so its bytes are not compared; its page and its module\'s answers are');
}

build('outside its module, web/widget.html is what `make widget` builds today', () => {
  assert.is(withoutModule(committed), withoutModule(fresh), 'web/widget.html is stale: run make widget and commit it');
});

build('its packed markup is what `make widget` packs today, from web/src/widget.html and data/widget.json', () => {
  assert.ok(packedBody(committed).includes('id="controls"'), 'no packed markup found');
  assert.is(packedBody(committed), packedBody(fresh));
  // the source's packed part, each __OFFERED_...__ line being the radio buttons data/widget.json offers
  const source = readFileSync(path('web/src/widget.html'), 'utf8').match(/<!--packed[^>]*-->\n([\s\S]*)<!--\/packed-->\n/)[1];
  const parts = source.split(/^__OFFERED_[A-Z]+__\n/m);
  let rest = packedBody(committed);
  parts.forEach((part, i) => {
    assert.ok(rest.startsWith(part), 'the packed markup is not web/src/widget.html\'s');
    rest = rest.slice(part.length);
    if (i === parts.length - 1) return;
    const radios = rest.match(/^(?:<label><input type="radio" name="\w+" value="[\w.]+"(?: checked)?>[^<\n]+<\/label>\n)+/);
    assert.ok(radios, 'no radio buttons where web/src/widget.html offers them');
    rest = rest.slice(radios[0].length);
  });
  assert.is(rest, '');
});

build('its module answers every setting the widget offers as today\'s build/lesson.wasm does', async () => {
  const old = await openModule(inlinedModule(committed));
  const now = await loadModule('build/lesson.wasm');
  const fixture = nativeFixture();
  const ask = (m, c) => {
    m.useBuiltin(c.model, c.link);
    return { setting: m.setting(c.gpus, c.split, c.words), chart: m.chart(c.split, c.words), timeline: m.timeline(c.gpus, c.split, c.words),
      fewest: m.fewest(c.split, c.words), explain: m.explain(c.gpus, c.split, c.words) };
  };
  assert.ok(fixture.cases.length >= 180);
  for (const c of fixture.cases) assert.equal(ask(old, c), ask(now, c), `${c.model}/${c.gpus}/${c.link}/${c.split}/${c.words}`);
});

build('both modules import nothing', () => {
  assert.equal(WebAssembly.Module.imports(new WebAssembly.Module(wasmBytes())), []);
  assert.equal(WebAssembly.Module.imports(new WebAssembly.Module(wasmBytes('build/lesson.wasm'))), []);
});

build.run();

const alone = suite('the widget stands alone');

// Issue 10's budget: the lesson's module carries tables built at build time instead of
// the config reader, and travels gzipped.
// Issue 31's goal, 28 KiB, with everything it holds.
alone('it is at most 28 KiB', () => {
  assert.ok(Buffer.byteLength(committed) <= 28 * 1024, `${Buffer.byteLength(committed)} bytes`);
});

alone('it names no URL and calls nothing that reaches the network, in its text or packed', () => {
  // the packed style and script too: the page runs them once unpacked
  for (const text of [committed, packedPage(committed)]) {
    for (const word of ['http://', 'https://', 'fetch(', 'XMLHttpRequest', 'WebSocket', 'sendBeacon', 'import(', 'EventSource']) {
      assert.not.ok(text.includes(word), word);
    }
    assert.not.ok(/\ssrc=/.test(text), 'an element loads a src');
    assert.not.ok(text.includes('@import'), 'a stylesheet imports another');
  }
});

alone('its packed style and script are the ones its Content-Security-Policy allows by hash', () => {
  const csp = committed.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)[1];
  const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const style = packedPage(committed).match(/^<style>([^<]*)<\/style>/);
  assert.ok(style, 'no packed style');
  assert.match(csp, new RegExp(`style-src [^;]*${hash(style[1]).replace(/[+/]/g, '\\$&')}`));
  assert.ok(packedScript(committed).includes('gpusplitWasm'), 'no packed script');
  assert.match(csp, new RegExp(`script-src [^;]*${hash(packedScript(committed)).replace(/[+/]/g, '\\$&')}`));
});

alone('its Content-Security-Policy allows no connection, and wasm by name', () => {
  const csp = committed.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
  assert.ok(csp, 'no CSP meta tag');
  const rules = csp[1].split(';').map((r) => r.trim());
  assert.ok(rules.includes("default-src 'none'"));
  assert.not.ok(rules.some((r) => r.startsWith('connect-src')), 'connect-src widens default-src');
  assert.ok(rules.some((r) => r.startsWith('script-src') && r.includes("'wasm-unsafe-eval'") && !r.includes("'unsafe-inline'")));
});

alone.run();

const dom = suite('the page and its script agree');

dom('every element the script looks up exists in the page', () => {
  const lookups = new Set([...source.matchAll(/\$\('([\w-]+)'\)/g)].map((m) => m[1]));
  assert.ok(lookups.size > 5);
  const missing = [...lookups].filter((id) => !page.includes(`id="${id}"`));
  assert.equal(missing, []);
  assert.ok(page.includes('id="gpu-root"'));
});

dom('the figures sit in an aria-live region, in elements #memory, #time and #waiting', () => {
  const live = page.slice(page.indexOf('aria-live'), page.indexOf('</section>'));
  for (const id of ['memory', 'time', 'waiting']) assert.ok(live.includes(`id="${id}"`), id);
});

dom('the controls offer exactly the settings the C offers, in its order', async () => {
  const fixture = nativeFixture();
  const module = await loadModule();
  const values = (name) => [...page.matchAll(new RegExp(`name="${name}" value="([^"]+)"`, 'g'))].map((m) => m[1]);
  assert.equal(values('model'), fixture.models.map((m) => m.key));
  assert.equal(values('link'), fixture.links.map((l) => l.key));
  assert.equal(values('split'), fixture.splits);
  assert.equal(values('gpus').map(Number), module.counts);
  assert.equal(values('words').map(Number), module.words);
  // the labels the page shows are the data's names
  for (const m of fixture.models) assert.ok(page.includes(`value="${m.key}"${m.key === '70b' ? ' checked' : ''}>${m.name}<`), m.name);
  for (const l of fixture.links) assert.ok(page.includes(`>${l.label}</label>`), l.label);
});

dom('the widget\'s script does no arithmetic or rounding on figures', () => {
  // the module (csrc/) rounds and formats every figure; the page only places its strings
  for (const banned of ['Math.', 'toFixed', 'toPrecision', 'toLocaleString', 'Intl.', ' * ', ' / ', ' - ', 'parseFloat']) {
    assert.not.ok(source.includes(banned), banned);
  }
  // its bars (web/src/widget_bars.js) turn shares into pixels and make no text
  const bars = readFileSync(path('web/src/widget_bars.js'), 'utf8');
  for (const banned of ['toFixed', 'toPrecision', 'toLocaleString', 'Intl.', 'parseFloat', 'String(', 'textContent', '`']) {
    assert.not.ok(bars.includes(banned), `widget_bars.js: ${banned}`);
  }
});

dom.run();
