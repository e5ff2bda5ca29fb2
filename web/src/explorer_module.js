// Opens the explorer's WebAssembly module (csrc/wasm/explorer.c, `make explorer`) and
// reads its figures by the names web/src/fields.js gives (csrc/core/fields.h). It moves
// numbers and strings between the module and JavaScript and computes nothing. The
// explorer page inlines this file; the Node and browser tests import it, so all read the
// module alike.
import { buffersOf, instantiate, readRecord, readRecords, readStrings } from './module_memory.js';
import { ARCHS, CHART, CHARTED, FRONTIER, GPU, LINK, LINK_KINDS, LOG, PLANNED, RULES, SETTING, SWEPT, SWITCHES, TICK } from './fields.js';

export { SWITCHES };
export const SPLIT_KEYS = ['slices', 'groups', 'slices-groups']; // enum gs_split
const USE_RULES = ['lesson', 'real', 'gpu']; // use_rules' 0, 1, 2 (csrc/wasm/explorer.c)

// A failure of one step: the module's one line, and the step it came from ('model',
// 'gpu', 'link', 'log', 'between', 'plan', 'price', 'sweep', 'explain').
export class StepError extends Error {
  constructor(step, message) {
    super(message);
    this.step = step;
  }
}

export async function openExplorer(bytes) {
  const w = await instantiate(bytes);
  const encoder = new TextEncoder();
  const strings = (ptr, count) => readStrings(w.memory, ptr, count);
  function check(step, status) {
    if (status !== 0) throw new StepError(step, strings(w.error_buffer(), 1)[0]);
  }
  // Text into a buffer of the module; its length in bytes.
  function put(step, ptr, capacity, text) {
    const bytes = encoder.encode(text);
    if (bytes.length > capacity) throw new StepError(step, `${step}: is longer than the module's buffer`);
    new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
    return bytes.length;
  }
  // A catalogue key, NUL-terminated, into key_in.
  const key = (step, k) => put(step, w.key_in_buffer(), w.key_in_capacity(), k + '\0');
  // list(): "key\tname\n" lines.
  function list(what) {
    check('list', w.list(what));
    const text = strings(w.list_buffer(), 1)[0];
    return text.split('\n').filter((line) => line !== '').map((line) => {
      const [k, name] = line.split('\t');
      return { key: k, name };
    });
  }
  const setting = { u64: w.setting_u64(), f64: w.setting_f64(), text: w.setting_text() };
  const chart = { f64: w.chart_f64(), text: w.chart_text() };
  const frontierBuffers = { f64: w.frontier_f64(), text: w.frontier_text() };
  const tickBuffers = { f64: w.ticks_f64(), text: w.ticks_text() };
  // The record a step handed over, by the name of its list (csrc/core/fields.h).
  const record = (layout, name) => readRecord(w.memory, layout, buffersOf(w, name));
  // A GPU's or a link's figures as a step gives them; arch and kind are names (ARCHS,
  // LINK_KINDS), handed back by their number.
  const gpuOf = () => record(GPU, 'gpu');
  const linkOf = () => record(LINK, 'link');

  return {
    maxGpus: w.max_gpus(),
    models: list(0),
    gpus: list(1),
    links: list(2),
    engines: list(3).map((e) => e.key),
    useModel(index, bits) {
      check('model', w.use_model(index >>> 0, bits));
    },
    useConfig(text, bits) {
      const len = put('config', w.text_in_buffer(), w.text_in_capacity(), text);
      check('model', w.use_config(len, bits));
    },
    useGpuKey(k) {
      key('gpu', k);
      check('gpu', w.use_gpu_key());
      return gpuOf();
    },
    useGpu(g) {
      check('gpu', w.use_gpu(g.gib, g.usable, g.bandwidth, g.flops, ARCHS.indexOf(g.arch) >>> 0));
      return gpuOf();
    },
    useLinkKey(k) {
      key('link', k);
      check('link', w.use_link_key());
      return linkOf();
    },
    useLink(l) {
      check('link', w.use_link(l.bandwidth, l.step_us, l.base_us, LINK_KINDS.indexOf(l.kind) >>> 0));
      return linkOf();
    },
    useLog(text) {
      const len = put('log', w.text_in_buffer(), w.text_in_capacity(), text);
      check('log', w.use_log(len));
      return record(LOG, 'log');
    },
    useBetweenKey(k) {
      key('between', k);
      check('between', w.use_between_key());
    },
    // The rules the next plan() takes: 'lesson' (switch by switch as the page sets them),
    // 'real' (report --assume real: real hardware's, with data/efficiency.json's fitted
    // efficiency), or 'gpu' (report with neither: real for a catalogue GPU, the lesson's for
    // the lesson's GPU).
    useRules(rules) {
      check('rules', w.use_rules(USE_RULES.indexOf(rules) >>> 0));
    },
    // The engine whose fitted figures price under real rules (report --engine): one of
    // engines, 'median', 'none' (the peaks), or '' for every engine's runs pooled.
    useEngine(k) {
      key('engine', k);
      check('engine', w.use_engine());
    },
    // p: split key, words, perServer, chatTokens, cacheBits (numbers) and the switches. Gives
    // the priced link, the message, and the rules that hold by their names in report's JSON
    // (GS_RULES_RECORD: assume, assumptions, efficiency.from, engine, cache_per_chat, nccl,
    // overlap, read_cache, divide_heads).
    plan(p) {
      let switches = 0;
      for (const [name, bit] of Object.entries(SWITCHES)) if (p[name]) switches |= bit;
      check('plan', w.plan(SPLIT_KEYS.indexOf(p.split) >>> 0, p.words, p.perServer, p.chatTokens, p.cacheBits, switches));
      const link = linkOf();
      return { link, linkName: link.name, messageBytes: record(PLANNED, 'planned').message_bytes, rules: record(RULES, 'rules') };
    },
    // Every figure of n GPUs, by its path in csrc/core/fields.h.
    price(n) {
      check('price', w.price(n >>> 0));
      return readRecord(w.memory, SETTING, setting);
    },
    sweep() {
      check('sweep', w.sweep());
      const { count, fewest, best } = readRecord(w.memory, SWEPT, { f64: w.summary_f64() });
      const rows = Array.from({ length: count }, (_, i) => readRecord(w.memory, CHART, chart, i));
      return { rows, fewest, best };
    },
    explain(n) {
      check('explain', w.explain(n >>> 0));
      return strings(w.explain_buffer(), 1)[0];
    },
    // The plan's frontier within gpusMax GPUs (csrc/core/plan.c) as a chart (csrc/emit/plan_chart.c):
    // each point's figures by their names in csrc/core/fields.h (GS_FRONTIER_FIELDS: its layout,
    // where its dot sits, x and y in percent, its report flags, its figures, its engine terms and
    // the lesson's words); the target's choice (null: none); why none meets the targets or none
    // fits; which counts were searched past 64 ('' when every one was); whether a target was
    // taken (times in ms, 0: none); a dot's diameter (percent of the plot's width); the axes'
    // ticks, across and up; and, when nothing fits, the fewest GPUs that hold the model (0: none).
    frontier(gpusMax, targetWordMs, targetFirstMs) {
      check('frontier', w.frontier(gpusMax, targetWordMs, targetFirstMs));
      const { count, chosen, tried, targeted, dot, across, up, fewest } = readRecord(w.memory, CHARTED, { f64: w.summary_f64() });
      const shown = chosen >= count ? chosen + 1 : count;
      const points = readRecords(w.memory, FRONTIER, frontierBuffers, shown).map((p, index) => ({ index, ...p }));
      const [why, searched] = strings(w.frontier_text(), shown * FRONTIER.text + 2).slice(shown * FRONTIER.text);
      const ticks = readRecords(w.memory, TICK, tickBuffers, across + up);
      return { points: points.slice(0, count), choice: chosen >= 0 ? points[chosen] : null, why, searched, tried,
        targeted, dot, across: ticks.slice(0, across), up: ticks.slice(across), fewest };
    },
    // Point i of the last frontier priced again: its figures and its sums.
    layout(i) {
      check('layout', w.layout(i >>> 0));
      return { setting: readRecord(w.memory, SETTING, setting), sums: strings(w.explain_buffer(), 1)[0] };
    },
  };
}
