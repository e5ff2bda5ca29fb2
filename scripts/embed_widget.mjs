// Builds the single-file widget: web/src/widget.html with its style (web/src/widget.css),
// its script (web/src/lesson_module.js with what it imports, then web/src/widget.js) and
// the lesson's module inlined, so that the page fits its 28 KiB budget; the sources stay
// readable in web/src/. The page carries as text only its first script
// (web/src/widget_start.js) and a first style (web/src/widget_first.css); the style, the
// markup and the script go packed in one zopfli gzip stream in base 85, the module in
// another, and the first script unpacks them. The Content-Security-Policy allows each
// script and style by its hash. Without scripts the page shows the lesson's opening view,
// in the native build's words.
// Usage: node scripts/embed_widget.mjs build/lesson.wasm build/widget.html
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { fill, inlined, minify, pack85, read, sha256 } from './single_page.mjs';

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
// run, so it travels packed with the style and the script: 4 KB of markup, 4 KB of style
// and 10 KB of script in about 7 KB (issue 31, the widget's 28 KiB).
const html = [
  ['__NOSCRIPT__', noscript],
  ['__OFFERED_MODEL__', radios('model', fixture.models.map((m) => [m.key, m.name]))],
  ['__OFFERED_GPUS__', radios('gpus', fixture.counts.map((n) => [n, n]))],
  ['__OFFERED_LINK__', radios('link', fixture.links.map((l) => [l.key, l.label]))],
  ['__OFFERED_WORDS__', radios('words', fixture.words.map((n) => [n, n]))],
].reduce((text, [marker, value]) => fill(text, marker, value), read('widget.html'));
const packed = html.match(/<!--packed[^>]*-->\n([\s\S]*)<!--\/packed-->\n/);
if (!packed) throw new Error('web/src/widget.html has no <!--packed--> part');

// the script runs as a classic script, inserted by the first one: wrapped in a function of
// its own, so none of its names is a global
const script = transformSync(inlined('lesson_module.js') + '\n' + inlined('widget_bars.js') + '\n' + inlined('widget.js'),
  { loader: 'js', minify: true, format: 'iife', target: 'es2022' }).code.trim();
const style = minify(read('widget.css'), 'css');
const firstStyle = minify(read('widget_first.css'), 'css');
// a NUL parts the markup from the script: neither holds one
if (script.includes('\0') || packed[1].includes('\0')) throw new Error('a NUL in the markup or the script');
const pagePath = outPath.replace(/\.html$/, '') + '.page.txt';
writeFileSync(pagePath, `<style>${style}</style>${packed[1]}\0${script}`);

// zopfli (Debian's): a gzip stream about 5% smaller than zlib's at level 9, the same bytes
// on every run, and one the browser's DecompressionStream opens as any gzip.
const zopfli = (path) => execFileSync('zopfli', ['--gzip', '-c', path], { maxBuffer: 1 << 24 });
const start = fill(fill(minify(read('widget_start.js'), 'js'), '__WASM_BASE85__', pack85(zopfli(wasmPath))),
  '__PAGE_BASE85__', pack85(zopfli(pagePath)));
const csp = [
  "default-src 'none'",
  `script-src ${sha256(start)} ${sha256(script)} 'wasm-unsafe-eval'`,
  `style-src ${sha256(firstStyle)} ${sha256(style)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
writeFileSync(outPath, fill(fill(fill(html.replace(packed[0], ''), '__CSP__', csp), '__STYLE__', firstStyle), '__SCRIPT__', start));
