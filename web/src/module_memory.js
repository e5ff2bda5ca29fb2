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
  const text = layout.text ? readStrings(memory, buffers.text, layout.text * count) : null;
  const rows = [];
  for (let row = 0; row < count; row++)
    rows.push(readRecord(memory, layout, buffers, row, text && text.slice(layout.text * row, layout.text * (row + 1))));
  return rows;
}

// `count` NUL-terminated UTF-8 strings, one after another, from ptr in memory: decoded in one
// call and split at the NULs (a NUL byte is never inside a UTF-8 character), not one call a
// string; with the flat lists below, node --no-opt --no-sparkplug reads a setting in 9 us
// against 62 (issue 31).
export function readStrings(memory, ptr, count) {
  if (count === 0) return [];
  const bytes = new Uint8Array(memory.buffer, ptr);
  let end = -1;
  for (let i = 0; i < count; i++) {
    end = bytes.indexOf(0, end + 1);
    if (end < 0) throw new Error(`the module's strings at ${ptr} end before their ${count}`);
  }
  return utf8.decode(bytes.subarray(0, end)).split('\0');
}

// Each layout's figures as flat lists, made once (a layout is one of web/src/fields.js's
// constants): each path's head and tail (its parts around the dot, the tail null without
// one), kind, as a number, and place. A key press reads three records on a page whose
// script the engine has not yet optimized; each field destructured, its path split and its
// kind compared as a string, the reading was a sixth of the press's script (issue 31).
const AS_U64 = 0, AS_TEXT = 1, AS_NAME = 2, AS_BOOL = 3, AS_OPT = 4, AS_F64 = 5;
const KIND_CODES = { u64: AS_U64, text: AS_TEXT, name: AS_NAME, bool: AS_BOOL, opt: AS_OPT };
const plans = new WeakMap();
function planOf(layout) {
  let plan = plans.get(layout);
  if (plan) return plan;
  plan = { heads: [], tails: [], kinds: [], ats: [] };
  for (const [path, kind, at] of layout.fields) {
    const dot = path.indexOf('.');
    plan.heads.push(dot < 0 ? path : path.slice(0, dot));
    plan.tails.push(dot < 0 ? null : path.slice(dot + 1));
    plan.kinds.push(KIND_CODES[kind] ?? AS_F64); // count and f64: a double as it is
    plan.ats.push(at);
  }
  plans.set(layout, plan);
  return plan;
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
  const { heads, tails, kinds, ats } = planOf(layout);
  const u64Row = layout.u64 * row;
  const f64Row = layout.f64 * row;
  const out = {};
  for (let i = 0; i < heads.length; i++) {
    const kind = kinds[i];
    let value;
    if (kind === AS_U64) value = u64[u64Row + ats[i]];
    else if (kind === AS_TEXT) value = text[ats[i]];
    else if (kind === AS_NAME) value = text[ats[i]] === '' ? null : text[ats[i]];
    else {
      value = f64[f64Row + ats[i]];
      if (kind === AS_BOOL) value = value === 1;
      else if (kind === AS_OPT && value < 0) value = null;
    }
    const tail = tails[i];
    if (tail === null) out[heads[i]] = value;
    else (out[heads[i]] ??= {})[tail] = value;
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
