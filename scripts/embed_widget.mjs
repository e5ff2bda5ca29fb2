// Builds the single-file widget: web/src/widget.html with its style, its script
// (web/src/module.js, then web/src/widget.js) and the WebAssembly module inlined as
// gzip and base64 (the page unpacks it with the browser's DecompressionStream; gzip
// halves the module), under a Content-Security-Policy that allows exactly that inline script and
// style (by hash), WebAssembly, and no connection. esbuild minifies the script and the
// style, so that the page fits its 40 KiB budget; the sources stay readable in web/src/.
// Usage: node scripts/embed_widget.mjs build/gpusplit.wasm build/widget.html
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';

const [wasmPath, outPath] = process.argv.slice(2);
if (!wasmPath || !outPath) {
  console.error('usage: node scripts/embed_widget.mjs WASM OUT');
  process.exit(2);
}
const src = new URL('../web/src/', import.meta.url);
const read = (name) => readFileSync(new URL(name, src), 'utf8');
const fill = (text, marker, value) => {
  if (!text.includes(marker)) throw new Error(`${marker} is missing`);
  return text.split(marker).join(value);
};
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// The module's `export`s become plain declarations: one inline script holds both files.
const module = read('module.js').replace(/^export /gm, '');
const minify = (code, loader) => transformSync(code, { loader, minify: true, format: loader === 'js' ? 'esm' : undefined, target: 'es2020' }).code.trim();
const packed = gzipSync(readFileSync(wasmPath), { level: 9 }).toString('base64');
const script = fill(minify(module + '\n' + read('widget.js'), 'js'), '__WASM_BASE64__', packed);
const style = minify(read('widget.css'), 'css');
const csp = [
  "default-src 'none'",
  `script-src ${sha256(script)} 'wasm-unsafe-eval'`,
  `style-src ${sha256(style)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

// The page without scripts shows the lesson's opening view, in the native build's words.
const fixture = JSON.parse(execFileSync(new URL('../build/gpusplit', import.meta.url).pathname, ['fixture'],
  { encoding: 'utf8', maxBuffer: 1 << 26 }));
const opening = fixture.cases.find((c) => c.model === '70b' && c.gpus === 4 && c.link === 'fast' && c.split === 'slices' && c.words === 1).view;
const noscript = `70B on 4 GPUs over the fast link: ${opening.memory} a GPU, ${opening.time} a word, ${opening.waiting} of it waiting.`;

let html = read('widget.html');
html = fill(html, '__NOSCRIPT__', noscript);
html = fill(html, '__CSP__', csp);
html = fill(html, '__STYLE__', style);
html = fill(html, '__SCRIPT__', script);
writeFileSync(outPath, html);
