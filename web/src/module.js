// Opens the widget's WebAssembly module (csrc/wasm/lesson.c, `make wasm`) with all it can
// be asked: what the widget calls (web/src/lesson_module.js) and, for the Node tests and the
// full module (build/gpusplit.wasm), a pasted config.json, the settings past the lesson and
// one figure at a time. It moves numbers and strings and computes nothing.
import { LINK_KEYS, MODEL_KEYS, openLesson, SPLIT_KEYS } from './lesson_module.js';
import { MACHINE, SWITCHES } from './fields.js';
import { writeRecord } from './module_memory.js';

export { LINK_KEYS, MODEL_KEYS, SPLIT_KEYS, SWITCHES };

export async function openModule(bytes) {
  const lesson = await openLesson(bytes);
  const { w, check, read, price } = lesson;
  const encoder = new TextEncoder();
  function list(at) {
    const out = [];
    for (let i = 0, v; (v = at(i)) !== 0; i++) out.push(v);
    return out;
  }
  const counts = list(w.offered_count);

  return {
    counts,
    words: list(w.offered_words),
    useBuiltin: lesson.useBuiltin,
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
      writeRecord(w.memory, MACHINE, w.machine_in(), { per_server: m.perServer, chat_tokens: m.chatTokens, cache_bits: m.cacheBits,
        switches, between: { ...m.between, kind: m.betweenKind }, link_kind: m.linkKind, arch: m.arch });
      check(w.machine());
    },
    // Everything one key press shows, each setting priced once.
    show: lesson.show,
    setting(gpus, splitKey, words) {
      price(gpus, splitKey, words);
      return read.setting();
    },
    chart(splitKey, words) {
      price(counts[0], splitKey, words);
      return read.chart();
    },
    // One word's step on each GPU: idle, reading, sending, idle, in percent of the step.
    timeline(gpus, splitKey, words) {
      price(gpus, splitKey, words);
      return read.timeline(gpus);
    },
    // The fewest GPUs (up to the setting's max_n, 64) that hold the model, or 0 when none does.
    fewest(splitKey, words) {
      price(counts[0], splitKey, words);
      return read.shown().fewest;
    },
    keptBusy: lesson.keptBusy,
    // The sums of the setting shown last, or of this one.
    explain(gpus, splitKey, words) {
      if (gpus !== undefined) price(gpus, splitKey, words);
      return lesson.explain();
    },
  };
}
