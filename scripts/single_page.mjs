// Shared by scripts/embed_widget.mjs and scripts/embed_explorer.mjs: one self-contained
// page from web/src/. The page's sources (its reader's `export`s turned into plain
// declarations, then its script), minified by esbuild, with the WebAssembly module
// gzipped by zopfli and base64-encoded in place of a marker (the page unpacks it with the
// browser's DecompressionStream; zopfli writes no time or name, so the same module gives
// the same page), under a Content-Security-Policy that allows exactly that
// inline script and style (by hash), WebAssembly, and no connection.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { transformSync } from 'esbuild';

const src = new URL('../web/src/', import.meta.url);
export const read = (name) => readFileSync(new URL(name, src), 'utf8');

export const fill = (text, marker, value) => {
  if (!text.includes(marker)) throw new Error(`${marker} is missing`);
  return text.split(marker).join(value);
};

export const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
export const minify = (code, loader) =>
  transformSync(code, { loader, minify: true, format: loader === 'js' ? 'esm' : undefined, target: 'es2022' }).code.trim();

// Every file the reader imports from web/src/ comes first, then the reader, then the
// script: one scope, so each file's `export`s become plain declarations and its imports
// of web/src/ files go (they are inlined before it).
const LOCAL_IMPORT = /^import \{[^}]*\} from '\.\/([\w.]+\.js)';\n/gm;
export function inlined(name) {
  const source = read(name);
  const imported = [...source.matchAll(LOCAL_IMPORT)].map((m) => m[1]);
  return [...imported.map((file) => read(file)), source.replace(LOCAL_IMPORT, '')]
    .map((text) => text.replace(/^export /gm, '')).join('\n');
}

// Base 85 in place of base 64: 5 characters for 4 bytes, not 4 for 3, 6% of the widget.
// The digits are '#' to '~' less '<' and the backslash, which a double-quoted string in a
// <script> may not hold as they are (nor '"', below '#'); the first character is the count
// of zero bytes padding the last group. web/src/widget.js unpack() reads it back.
export const DIGITS85 = Array.from({ length: 92 }, (_, i) => String.fromCharCode(35 + i)).filter((c) => c !== '<' && c !== '\\')
  .slice(0, 85).join('');
export function pack85(bytes) {
  const pad = (4 - (bytes.length % 4)) % 4;
  const padded = Buffer.concat([bytes, Buffer.alloc(pad)]);
  let out = DIGITS85[pad];
  for (let i = 0; i < padded.length; i += 4) {
    let v = padded.readUInt32BE(i);
    const group = [];
    for (let k = 0; k < 5; k++, v = Math.floor(v / 85)) group.unshift(DIGITS85[v % 85]);
    out += group.join('');
  }
  return out;
}

// The page `html` (a file in web/src/, its markers already filled but __CSP__, __STYLE__
// and __SCRIPT__) with `reader` and `script` (files in web/src/), `style`, and the module
// at wasmPath in place of wasmMarker, in base 64 or (base85) in base 85.
// With `body` ({ marker, path }), the file at path (the page's markup) is packed as the
// module is, in base 85, in place of that marker.
export function singlePage({ html, reader, script, style, wasmPath, wasmMarker, base85 = false, body = null }) {
  // zopfli (Debian's): a gzip stream about 5% smaller than zlib's at level 9, the same
  // bytes on every run, and one the browser's DecompressionStream opens as any gzip.
  const zopfli = (path) => execFileSync('zopfli', ['--gzip', '-c', path], { maxBuffer: 1 << 24 });
  const gzip = zopfli(wasmPath);
  const packed = base85 ? pack85(gzip) : gzip.toString('base64');
  let code = fill(minify(inlined(reader) + '\n' + inlined(script), 'js'), wasmMarker, packed);
  if (body) code = fill(code, body.marker, pack85(zopfli(body.path)));
  const css = minify(read(style), 'css');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(code)} 'wasm-unsafe-eval'`,
    `style-src ${sha256(css)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return fill(fill(fill(html, '__CSP__', csp), '__STYLE__', css), '__SCRIPT__', code);
}
