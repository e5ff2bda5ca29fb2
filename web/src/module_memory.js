// What both readers of a gpusplit module share (web/src/module.js for the widget's,
// web/src/explorer_module.js for the explorer's): opening the module and reading the
// NUL-terminated strings its static buffers hold. The pages inline this file before their
// reader (scripts/single_page.mjs); the Node tests import it through the readers.

// Compiled synchronously: the asynchronous compile waits for a task of its own, which in
// the bench cost more than the compile itself. A browser that refuses to compile a module
// this size on the main thread says so with a RangeError, and gets the asynchronous way.
export async function instantiate(bytes) {
  let instance;
  try {
    instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    instance = (await WebAssembly.instantiate(bytes, {})).instance;
  }
  if (instance.exports._initialize) instance.exports._initialize();
  return instance.exports;
}

const utf8 = new TextDecoder();

// The first `count` rows of a list, its strings read once for all of them (a key press
// reads the chart's and the timeline's rows).
export function readRecords(memory, layout, buffers, count) {
  const text = layout.text ? readStrings(memory, buffers.text, layout.text * count) : [];
  return Array.from({ length: count }, (_, row) =>
    readRecord(memory, layout, buffers, row, layout.text ? text.slice(layout.text * row, layout.text * (row + 1)) : null));
}

// `count` NUL-terminated UTF-8 strings, one after another, from ptr in memory.
export function readStrings(memory, ptr, count) {
  const bytes = new Uint8Array(memory.buffer, ptr);
  const out = [];
  let start = 0;
  for (let i = 0; out.length < count; i++) {
    if (bytes[i] === 0) {
      out.push(utf8.decode(bytes.subarray(start, i)));
      start = i + 1;
    }
  }
  return out;
}

// The figures of one record a module handed over (csrc/wasm/abi.c), by the layout
// web/src/fields.js gives: row `row` of that list, from its 64-bit, double and string
// buffers (an 'opt' figure below 0 being null), as an object whose keys are the figures' paths ("memory.total" as
// { memory: { total } }), the same as the command line's JSON.
// `strings`, when given, are the row's strings, already read (readRecords).
export function readRecord(memory, layout, buffers, row = 0, strings = null) {
  const u64 = layout.u64 ? new BigUint64Array(memory.buffer, buffers.u64, layout.u64 * (row + 1)) : null;
  const f64 = layout.f64 ? new Float64Array(memory.buffer, buffers.f64, layout.f64 * (row + 1)) : null;
  const text = strings ?? (layout.text ? readStrings(memory, buffers.text, layout.text * (row + 1)).slice(layout.text * row) : null);
  const out = {};
  for (const [path, kind, at] of layout.fields) {
    let value;
    if (kind === 'u64') value = u64[layout.u64 * row + at];
    else if (kind === 'text') value = text[at];
    else if (kind === 'name') value = text[at] === '' ? null : text[at];
    else {
      value = f64[layout.f64 * row + at];
      if (kind === 'bool') value = value === 1;
      else if (kind === 'opt' && value < 0) value = null;
    }
    const dot = path.indexOf('.');
    if (dot < 0) out[path] = value;
    else (out[path.slice(0, dot)] ??= {})[path.slice(dot + 1)] = value;
  }
  return out;
}

// The buffers of the record `name` a module hands over (csrc/wasm/abi.h, GS_ABI_RECORD):
// its exports name_u64, name_f64 and name_text.
export const buffersOf = (w, name) => ({ u64: w[`${name}_u64`](), f64: w[`${name}_f64`](), text: w[`${name}_text`]() });

// A record JavaScript hands in (csrc/core/fields.h's GS_MACHINE_FIELDS), all doubles: each
// figure from values by its path ("between.kind" as values.between.kind), in its place.
export function writeRecord(memory, layout, ptr, values) {
  const f64 = new Float64Array(memory.buffer, ptr, layout.f64);
  for (const [path, , at] of layout.fields) {
    const dot = path.indexOf('.');
    const value = dot < 0 ? values[path] : values[path.slice(0, dot)]?.[path.slice(dot + 1)];
    if (typeof value !== 'number') throw new Error(`${path}: a number is needed`);
    f64[at] = value;
  }
}
