// The widget's first script, the only one its page carries as text (scripts/embed_widget.mjs):
// the page's style, markup and script travel packed as the module does, gzipped by zopfli
// in base 85, at about a third of their size (issue 31, the widget's 28 KiB). This unpacks
// them, puts the style and markup in place, and runs the script, which the page's
// Content-Security-Policy allows by its hash as it allows this one. The module unpacks
// meanwhile; web/src/widget.js opens it (gpusplitWasm).
const NO_RUN = 'this browser runs no WebAssembly, which the widget computes with. Any current Chrome, Edge, Firefox or Safari does.';
const error = document.getElementById('error');
if (typeof WebAssembly !== 'object' || typeof DecompressionStream !== 'function') {
  error.hidden = false;
  error.textContent = 'The widget could not start: ' + NO_RUN;
  throw new Error(NO_RUN);
}

// A packed text, unpacked: base 85 to bytes with a plain loop (scripts/single_page.mjs
// pack85: '#' to '~' less '<' and the backslash; first the zero bytes padding the end),
// then gzip through the browser's own DecompressionStream, fed through its own writer and
// read through its own reader: through Blob.stream() and Response it took 12 ms more in
// the bench (issue 20).
async function unpack85(text) {
  const digit = new Uint8Array(127);
  for (let c = 35, i = 0; i < 85; c++) if (c !== 60 && c !== 92) digit[c] = i++;
  const bytes = new Uint8Array((text.length - 1) / 5 * 4);
  for (let i = 1, o = 0; i < text.length; i += 5, o += 4) {
    let v = 0;
    for (let k = 0; k < 5; k++) v = v * 85 + digit[text.charCodeAt(i + k)];
    bytes.set([v >>> 24, v >>> 16, v >>> 8, v], o);
  }
  const inflate = new DecompressionStream('gzip');
  const writer = inflate.writable.getWriter();
  writer.write(bytes.subarray(0, bytes.length - digit[text.charCodeAt(0)]));
  writer.close();
  const reader = inflate.readable.getReader();
  const parts = [];
  let size = 0;
  for (let part; !(part = await reader.read()).done; size += part.value.length) parts.push(part.value);
  const out = new Uint8Array(size);
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}

// the module unpacks while the page does (the bench's load)
self.gpusplitWasm = unpack85('__WASM_BASE85__');
self.gpusplitWasm.catch(() => {}); // its failure is shown by widget.js, once the page has its markup
const [markup, script] = new TextDecoder().decode(await unpack85('__PAGE_BASE85__')).split('\0');
error.insertAdjacentHTML('beforebegin', markup);
const run = document.createElement('script');
run.textContent = script;
document.body.append(run);
