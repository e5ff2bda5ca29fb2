// Builds the single-file explorer: web/src/explorer.html with its style, its script
// (web/src/explorer_module.js, then web/src/explorer.js) and the WebAssembly module
// inlined, under a Content-Security-Policy that allows exactly that inline script and
// style (by hash), WebAssembly, and no connection; as scripts/embed_widget.mjs builds the
// widget. The module is gzip-compressed before base64 (the page opens it with the
// browser's DecompressionStream): the full catalogue's module is about 90 KB, 31 KB
// compressed, which keeps the page within its 128 KiB budget. zlib's gzip at a fixed level
// writes no time or name into its header, so the same module gives the same page.
// Usage: node scripts/embed_explorer.mjs build/explorer.wasm build/explorer.html
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';

const [wasmPath, outPath] = process.argv.slice(2);
if (!wasmPath || !outPath) {
  console.error('usage: node scripts/embed_explorer.mjs WASM OUT');
  process.exit(2);
}
const src = new URL('../web/src/', import.meta.url);
const read = (name) => readFileSync(new URL(name, src), 'utf8');
const fill = (text, marker, value) => {
  if (!text.includes(marker)) throw new Error(`${marker} is missing`);
  return text.split(marker).join(value);
};
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// The reader's `export`s become plain declarations: one inline script holds both files.
const reader = read('explorer_module.js').replace(/^export /gm, '');
const minify = (code, loader) => transformSync(code, { loader, minify: true, format: loader === 'js' ? 'esm' : undefined, target: 'es2020' }).code.trim();
const packed = gzipSync(readFileSync(wasmPath), { level: 9 }).toString('base64');
const script = fill(minify(reader + '\n' + read('explorer.js'), 'js'), '__WASM_GZIP_BASE64__', packed);
const style = minify(read('explorer.css'), 'css');
const csp = [
  "default-src 'none'",
  `script-src ${sha256(script)} 'wasm-unsafe-eval'`,
  `style-src ${sha256(style)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

let html = read('explorer.html');
html = fill(html, '__CSP__', csp);
html = fill(html, '__STYLE__', style);
html = fill(html, '__SCRIPT__', script);
writeFileSync(outPath, html);
