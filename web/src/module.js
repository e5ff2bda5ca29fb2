// Opens the gpusplit WebAssembly module (built from csrc/ by `make wasm`) and reads its
// static buffers, whose layouts csrc/wasm/lesson.c lists. This moves numbers and strings between
// the module and JavaScript and computes nothing. The widget inlines this file; the Node
// tests import it, so both use the same reader.
import { instantiate, readStrings } from './module_memory.js';

export const MODEL_KEYS = ['8b', '70b', '405b']; // the order of GS_MODELS in csrc/read/data.c
export const LINK_KEYS = ['fast', 'slow']; // GS_LINK_KEYS
export const SPLIT_KEYS = ['slices', 'groups', 'slices-groups']; // enum gs_split
export const PROTOCOLS = [null, 'LL', 'LL128', 'Simple']; // enum gs_protocol, plus one

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
      const switches = (m.cachePerChat ? 1 : 0) | (m.overlap ? 2 : 0) | (m.readCache ? 4 : 0) | (m.nccl === 'auto' ? 8 : 0);
      check(w.machine(m.perServer, m.chatTokens, m.cacheBits, switches, m.between.bandwidth, m.between.step_us,
        m.linkKind | (m.betweenKind << 2) | (m.arch << 4)));
    },
    // One word's step on each GPU: idle, reading, sending, idle, in percent of the step.
    timeline(gpus, splitKey, words) {
      check(w.timeline(gpus, SPLIT_KEYS.indexOf(splitKey) >>> 0, words));
      const t = new Float64Array(w.memory.buffer, w.timeline_buffer(), 4 * gpus);
      return Array.from({ length: gpus }, (_, i) => ({ idleBefore: t[4 * i], read: t[4 * i + 1], wait: t[4 * i + 2], idleAfter: t[4 * i + 3] }));
    },
    // The fewest GPUs (up to 64) that hold the model, or 0 when none does.
    fewest(splitKey, words) {
      const n = w.fewest(SPLIT_KEYS.indexOf(splitKey) >>> 0, words);
      if (n < 0) check(n);
      return n;
    },
    explain(gpus, splitKey, words) {
      check(w.explain(gpus, SPLIT_KEYS.indexOf(splitKey) >>> 0, words));
      return strings(w.explain_buffer(), 1)[0];
    },
    setting(gpus, splitKey, words) {
      check(w.setting(gpus, SPLIT_KEYS.indexOf(splitKey) >>> 0, words));
      const b = new BigUint64Array(w.memory.buffer, w.bytes_buffer(), 12);
      const d = new Float64Array(w.memory.buffer, w.numbers_buffer(), 11);
      const t = strings(w.text_buffer(), 11);
      return {
        params: b[0], weightBytes: b[1], usableBytes: b[2],
        memory: { weights: b[3], cache: b[4], working: b[5], total: b[6] },
        fits: b[7] === 1n, readBytes: b[8], activeParams: b[9], servers: b[10], protocol: PROTOCOLS[Number(b[11])],
        time: { read: d[0], transfer: d[1], total: d[2], share: d[3], wordsPerS: d[4], totalWordsPerS: d[8], swap: d[9] },
        compute: d[5], memBar: d[6], waitBar: d[7], limitBar: d[10],
        text: {
          memory: t[0], weights: t[1], cache: t[2], working: t[3], usable: t[4],
          time: t[5], read: t[6], transfer: t[7], waiting: t[8], wordsPerS: t[9], wordsAll: t[10],
        },
      };
    },
    chart(splitKey, words) {
      check(w.chart(SPLIT_KEYS.indexOf(splitKey) >>> 0, words));
      const c = new Float64Array(w.memory.buffer, w.chart_buffer(), 4 * counts.length);
      const times = strings(w.text_buffer(), counts.length);
      return counts.map((_, i) => ({
        gpus: c[4 * i], fits: c[4 * i + 1] === 1, readBar: c[4 * i + 2], waitBar: c[4 * i + 3], time: times[i],
      }));
    },
  };
}
