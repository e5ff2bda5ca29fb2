// Builds the single-file widget (scripts/single_page.mjs): web/src/widget.html with its
// style, its script (web/src/module.js, then web/src/widget.js) and the lesson's module
// inlined, so that the page fits its 32 KiB budget; the sources stay readable in web/src/.
// Without scripts the page shows the lesson's opening view, in the native build's words.
// Usage: node scripts/embed_widget.mjs build/lesson.wasm build/widget.html
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fill, read, singlePage } from './single_page.mjs';

const [wasmPath, outPath] = process.argv.slice(2);
if (!wasmPath || !outPath) {
  console.error('usage: node scripts/embed_widget.mjs WASM OUT');
  process.exit(2);
}
const fixture = JSON.parse(execFileSync(new URL('../build/gpusplit', import.meta.url).pathname, ['fixture'],
  { encoding: 'utf8', maxBuffer: 1 << 26 }));
// What the widget offers and opens on: data/widget.json, whose counts, links and words the
// native build's tables hold (scripts/tables.c), so the fixture lists them with their names.
const offer = JSON.parse(readFileSync(new URL('../data/widget.json', import.meta.url), 'utf8'));
const open = { model: offer.model, gpus: offer.gpus.default, link: offer.link.default, split: offer.split, words: offer.words.default };
const radios = (name, options) => options.map(([value, label]) =>
  `<label><input type="radio" name="${name}" value="${value}"${String(value) === String(open[name]) ? ' checked' : ''}>${label}</label>`).join('\n');
const opening = fixture.cases.find((c) => Object.keys(open).every((k) => c[k] === open[k]));
if (!opening) throw new Error('data/widget.json opens on a setting the fixture does not price');
const modelName = fixture.models.find((m) => m.key === open.model).name;
const noscript = `${modelName} on ${open.gpus} GPUs over the ${open.link} link: ${opening.view.memory} a GPU, ${opening.view.time} a word, ${opening.view.waiting} of it waiting.`;

// The markup between <!--packed...--> and <!--/packed--> is all hidden until the script has
// run, so the page carries it packed as the module is, and the script unpacks it first: its
// 4 KB of markup travel in 1.5 KB (issue 20, the widget's 28 KB goal).
const html = [
  ['__NOSCRIPT__', noscript],
  ['__OFFERED_MODEL__', radios('model', fixture.models.map((m) => [m.key, m.name]))],
  ['__OFFERED_GPUS__', radios('gpus', fixture.counts.map((n) => [n, n]))],
  ['__OFFERED_LINK__', radios('link', fixture.links.map((l) => [l.key, l.label]))],
  ['__OFFERED_WORDS__', radios('words', fixture.words.map((n) => [n, n]))],
].reduce((text, [marker, value]) => fill(text, marker, value), read('widget.html'));
const packed = html.match(/<!--packed[^>]*-->\n([\s\S]*)<!--\/packed-->\n/);
if (!packed) throw new Error('web/src/widget.html has no <!--packed--> part');
const bodyPath = outPath.replace(/\.html$/, '') + '.body.html';
writeFileSync(bodyPath, packed[1]);

writeFileSync(outPath, singlePage({
  html: html.replace(packed[0], ''),
  reader: 'lesson_module.js', script: 'widget.js', style: 'widget.css', wasmPath, wasmMarker: '__WASM_BASE85__', base85: true,
  body: { marker: '__BODY_BASE85__', path: bodyPath },
}));
