// Opens the widget's WebAssembly module (csrc/wasm/lesson.c, `make wasm`) and reads its
// buffers by the names web/src/fields.js gives (csrc/core/fields.h). This moves numbers
// and strings between the module and JavaScript and computes nothing. The widget inlines
// this file; the Node tests import it, so both use the same reader.
import { instantiate, readRecord, readStrings } from './module_memory.js';
import { CHART, SETTING, TIMELINE } from './fields.js';

export const MODEL_KEYS = ['8b', '70b', '405b']; // the order of GS_MODELS in csrc/read/data.c
export const LINK_KEYS = ['fast', 'slow']; // GS_LINK_KEYS
export const SPLIT_KEYS = ['slices', 'groups', 'slices-groups']; // enum gs_split
// enum gs_switch (csrc/gpusplit.h)
export const SWITCHES = { cachePerChat: 1, overlap: 2, readCache: 4, ncclAuto: 8, divideHeads: 16 };

export async function openModule(bytes) {
  const w = await instantiate(bytes);
  const encoder = new TextEncoder();
  const strings = (ptr, count) => readStrings(w.memory, ptr, count);
  function check(status) {
    if (status !== 0) throw new Error(strings(w.error_buffer(), 1)[0]);
  }
  function list(at) {
    const out = [];
    for (let i = 0, v; (v = at(i)) !== 0; i++) out.push(v);
    return out;
  }
  const counts = list(w.offered_count);
  const setting = { u64: w.setting_u64(), f64: w.setting_f64(), text: w.setting_text() };
  const chart = { f64: w.chart_f64(), text: w.chart_text() };
  const timeline = { f64: w.timeline_f64(), text: w.timeline_text() };

  // Resolves and prices one setting, with the chart over the offered counts, its timeline
  // and the fewest count; each reader below takes what it needs of it.
  function show(gpus, splitKey, words) {
    check(w.show(gpus, SPLIT_KEYS.indexOf(splitKey) >>> 0, words));
  }
  const readSetting = () => readRecord(w.memory, SETTING, setting);
  const summary = (count) => new Float64Array(w.memory.buffer, w.summary_f64(), count);
  const readBusy = () => summary(3)[2] === 1;
  const readChart = () => Array.from({ length: summary(2)[1] }, (_, i) => readRecord(w.memory, CHART, chart, i));
  const readTimeline = (gpus) => Array.from({ length: gpus }, (_, i) => readRecord(w.memory, TIMELINE, timeline, i));
  const readFewest = () => summary(1)[0];

  return {
    counts,
    words: list(w.offered_words),
    useBuiltin(modelKey, linkKey) {
      check(w.use_builtin(MODEL_KEYS.indexOf(modelKey) >>> 0, LINK_KEYS.indexOf(linkKey) >>> 0));
    },
    useCustom(configText, gpu, link) {
      if (!w.use_custom) throw new Error('this module reads no config.json: it offers the lesson\'s three models');
      const text = encoder.encode(configText);
      if (text.length > w.text_in_capacity()) throw new Error('config text is too long for the module');
      new Uint8Array(w.memory.buffer, w.text_in_buffer(), text.length).set(text);
      check(w.use_custom(text.length, gpu.gib, gpu.usable, gpu.bandwidth, gpu.flops, link.bandwidth, link.step_us, link.base_us));
    },
    // The settings past the lesson (csrc/wasm/lesson.c, machine()); numbers as the C enums have them.
    machine(m) {
      const switches = (m.cachePerChat ? SWITCHES.cachePerChat : 0) | (m.overlap ? SWITCHES.overlap : 0) |
        (m.readCache ? SWITCHES.readCache : 0) | (m.nccl === 'auto' ? SWITCHES.ncclAuto : 0);
      check(w.machine(m.perServer, m.chatTokens, m.cacheBits, switches, m.between.bandwidth, m.between.step_us,
        m.linkKind | (m.betweenKind << 2) | (m.arch << 4)));
    },
    // Everything one key press shows, each setting priced once.
    show(gpus, splitKey, words) {
      show(gpus, splitKey, words);
      return { setting: readSetting(), chart: readChart(), timeline: readTimeline(gpus), fewest: readFewest(), busy: readBusy() };
    },
    setting(gpus, splitKey, words) {
      show(gpus, splitKey, words);
      return readSetting();
    },
    chart(splitKey, words) {
      show(counts[0], splitKey, words);
      return readChart();
    },
    // One word's step on each GPU: idle, reading, sending, idle, in percent of the step.
    timeline(gpus, splitKey, words) {
      show(gpus, splitKey, words);
      return readTimeline(gpus);
    },
    // The fewest GPUs (up to 64) that hold the model, or 0 when none does.
    fewest(splitKey, words) {
      show(counts[0], splitKey, words);
      return readFewest();
    },
    // The setting shown last with every group kept busy (a batch in flight for each group),
    // and its timeline; show() says when it has one (busy).
    keptBusy() {
      check(w.kept_busy());
      const setting = readSetting();
      return { setting, timeline: readTimeline(setting.gpus) };
    },
    // The sums of the setting shown last, or of this one.
    explain(gpus, splitKey, words) {
      if (gpus !== undefined) show(gpus, splitKey, words);
      check(w.explain());
      return strings(w.explain_buffer(), 1)[0];
    },
  };
}
