// What the widget calls of its WebAssembly module (csrc/wasm/lesson.c, `make wasm`): the
// lesson's model and link, one key press's figures, the setting kept busy and the sums,
// read by the names web/src/fields.js gives. The widget inlines this file alone
// (scripts/embed_widget.mjs); web/src/module.js adds what the tests ask of the module.
import { instantiate, readRecord, readRecords, readStrings } from './module_memory.js';
import { CHART, SETTING, SHOWN, TIMELINE } from './fields.js';

export const MODEL_KEYS = ['8b', '70b', '405b']; // the order of GS_MODELS in csrc/read/data.c
export const LINK_KEYS = ['fast', 'slow']; // GS_LINK_KEYS
export const SPLIT_KEYS = ['slices', 'groups', 'slices-groups']; // enum gs_split

export async function openLesson(bytes) {
  const w = await instantiate(bytes);
  const strings = (ptr, count) => readStrings(w.memory, ptr, count);
  function check(status) {
    if (status !== 0) throw new Error(strings(w.error_buffer(), 1)[0]);
  }
  const setting = { u64: w.setting_u64(), f64: w.setting_f64(), text: w.setting_text() };
  const chart = { f64: w.chart_f64(), text: w.chart_text() };
  const timeline = { f64: w.timeline_f64(), text: w.timeline_text() };
  // what show() hands over beside its records (GS_SHOWN_FIELDS), by name
  const shown = () => readRecord(w.memory, SHOWN, { f64: w.summary_f64() });
  const read = {
    setting: () => readRecord(w.memory, SETTING, setting),
    chart: () => readRecords(w.memory, CHART, chart, shown().chart_rows),
    timeline: (gpus) => readRecords(w.memory, TIMELINE, timeline, gpus),
    shown,
  };
  // Resolves and prices one setting, with the chart over the offered counts, its timeline
  // and the fewest count up to the budget; read.* takes what it needs of it.
  const price = (gpus, splitKey, words) => check(w.show(gpus, SPLIT_KEYS.indexOf(splitKey) >>> 0, words));
  return {
    w, check, read, price,
    useBuiltin(modelKey, linkKey) {
      check(w.use_builtin(MODEL_KEYS.indexOf(modelKey) >>> 0, LINK_KEYS.indexOf(linkKey) >>> 0));
    },
    // Everything one key press shows, each setting priced once.
    show(gpus, splitKey, words) {
      price(gpus, splitKey, words);
      return { setting: read.setting(), chart: read.chart(), timeline: read.timeline(gpus), ...shown() };
    },
    // The setting shown last with every group kept busy (a batch in flight for each group),
    // and its timeline; show() says when it has one (busy).
    keptBusy() {
      check(w.kept_busy());
      const busy = read.setting();
      return { setting: busy, timeline: read.timeline(busy.gpus) };
    },
    // The setting shown last split in slices, which "Groups kept busy" is weighed against.
    slicesBeside() {
      check(w.slices_beside());
      return read.setting();
    },
    // The sums of the setting shown last.
    explain() {
      check(w.explain());
      return strings(w.explain_buffer(), 1)[0];
    },
  };
}
