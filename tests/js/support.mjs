// Shared by the Node tests: the built module, opened through the widget's own reader
// (web/src/module.js), and fixtures written by the native build.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { openModule } from '../../web/src/module.js';

export const ROOT = new URL('../../', import.meta.url);
export const path = (relative) => new URL(relative, ROOT);

// build/gpusplit.wasm counts every family; build/lesson.wasm, inside the widget, Llama only.
export const wasmBytes = (file = 'build/gpusplit.wasm') => readFileSync(path(file));
export const loadModule = (file) => openModule(wasmBytes(file));

// `gpusplit fixture` with the given flags, parsed. Doubles are written with 17
// significant digits, so JSON.parse gives back exactly the native build's doubles.
export function nativeFixture(...flags) {
  const out = execFileSync(path('build/gpusplit').pathname, ['fixture', ...flags], { maxBuffer: 1 << 30, encoding: 'utf8' });
  return JSON.parse(out);
}

// `gpusplit report` with the given flags, as text.
export function nativeExplain(flags) {
  return execFileSync(path('build/gpusplit').pathname, ['report', ...flags], { encoding: 'utf8' });
}

// Every figure a list of web/src/fields.js names (csrc/core/fields.h), the module's
// answer against the native build's JSON: byte counts exactly (the JSON gives them as
// digits), doubles bit for bit (Object.is), strings exactly. The differences, as lines.
export function fieldDifferences(layout, native, wasm) {
  const at = (object, path) => path.split('.').reduce((o, key) => (o === undefined ? undefined : o[key]), object);
  const out = [];
  for (const [path, kind] of layout.fields) {
    const want = kind === 'u64' ? BigInt(at(native, path)) : at(native, path);
    const got = at(wasm, path);
    if (!Object.is(got, want)) out.push(`${path}: wasm ${got}, native ${want}`);
  }
  return out;
}

// What builds a committed page's bytes besides its sources: this machine's Emscripten and
// zopfli (scripts/built_with.sh), and the pair web/BUILT_WITH records for the page. The
// tests compare the page's bytes with a fresh build only when the two are the same.
export const toolchain = () => execFileSync('sh', [path('scripts/built_with.sh').pathname, '--version'], { encoding: 'utf8' }).trim();
export function builtWith(page) {
  const line = readFileSync(path('web/BUILT_WITH'), 'utf8').split('\n').find((l) => l.startsWith(`${page}: `));
  return line ? line.slice(page.length + 2) : '(not recorded)';
}

// The gzip-compressed, base64-encoded module a page inlines, unpacked; and the page with it
// and the CSP hashes (of the script that holds it) masked, for a comparison of the rest.
// (The widget's is in base 85, scripts/single_page.mjs pack85; the explorer's in base 64.)
const INLINED = /"([#-~]{1000,})"/;
function unpack85(text) {
  const digits = Array.from({ length: 92 }, (_, i) => String.fromCharCode(35 + i)).filter((c) => c !== '<' && c !== '\\');
  const bytes = Buffer.alloc((text.length - 1) / 5 * 4);
  for (let i = 1, o = 0; i < text.length; i += 5, o += 4) {
    let v = 0;
    for (let k = 0; k < 5; k++) v = v * 85 + digits.indexOf(text[i + k]);
    bytes.writeUInt32BE(v, o);
  }
  return bytes.subarray(0, bytes.length - digits.indexOf(text[0]));
}
const packedParts = (html) => [...html.matchAll(new RegExp(INLINED.source, 'g'))]
  .map((m) => gunzipSync(/^[A-Za-z0-9+/]+={0,2}$/.test(m[1]) ? Buffer.from(m[1], 'base64') : unpack85(m[1])));
const WASM_MAGIC = Buffer.from([0, 0x61, 0x73, 0x6d]);
export function inlinedModule(html) {
  return packedParts(html).find((bytes) => bytes.subarray(0, 4).equals(WASM_MAGIC)) ?? null;
}
// What the widget's page carries packed besides its module (scripts/embed_widget.mjs): its
// style, its markup and, after a NUL, its script; '' for none.
export function packedPage(html) {
  const page = packedParts(html).find((bytes) => !bytes.subarray(0, 4).equals(WASM_MAGIC));
  return page ? page.toString('utf8') : '';
}
// The widget's markup the page carries packed, without the style before it and the script after it.
export const packedBody = (html) => packedPage(html).replace(/^<style>[^<]*<\/style>/, '').split('\0')[0];
// The widget's script the page carries packed.
export const packedScript = (html) => packedPage(html).split('\0')[1] ?? '';
// The page as its script makes it: its packed markup put back before #error.
export const unpackedPage = (html) => html.replace('<p id="error"', `${packedBody(html)}<p id="error"`);
export const withoutModule = (html) =>
  html.replace(new RegExp(INLINED.source, 'g'), '"MODULE"').replace(/'sha256-[A-Za-z0-9+/]+={0,2}'/g, "'sha256-MASKED'");
