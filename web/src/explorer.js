// The explorer: one state object, kept in the URL fragment; input handlers only write it;
// one render() sends it to the module, step by step as csrc/wasm/explorer.c orders them,
// and places the module's answers. No figure is computed here.
import { drawChart, listenChart } from './explorer_chart.js';
import { FRAGMENT_DELAY_MS } from './fragment_delay.js';
import { RULES_DEFAULTS, askRules, clearRules, fillEngines, rulesValue, showRules } from './explorer_rules.js';

const WASM_GZIP_BASE64 = '__WASM_GZIP_BASE64__';
// A pasted config.json goes into the page's address only up to this many bytes, so that
// a link stays short enough to paste into a chat or an e-mail.
const LINKABLE_CONFIG_BYTES = 2048;
const $ = (id) => document.getElementById(id);
const form = $('controls');

// Every setting, as the controls hold it (text), with its default.
const DEFAULTS = {
  model: '70b', config: '', bits: '', gpu: 'h100-sxm', gtyped: '', gib: '', usable: '', gbw: '', flops: '',
  link: 'nvlink4', ltyped: '', lbw: '', step: '', base: '', per: '', between: 'ib-ndr', split: 'slices',
  words: '1', tokens: '', cbits: '', cpc: '', overlap: '', rcache: '', heads: '', auto: '', n: '4',
  budget: '8', target: '', pick: '', ...RULES_DEFAULTS,
};
const FIELDS = Object.keys(DEFAULTS);
const CHECKBOXES = ['gtyped', 'ltyped', 'cpc', 'overlap', 'rcache', 'heads', 'auto'];
const SELECTS = ['model', 'gpu', 'link', 'between', 'split', 'engine'];
const state = { ...DEFAULTS };
let log = ''; // a pasted nccl-tests log: kept in the page only, being long
let module = null;
// Whether NCCL's rules price the all-reduce (ticked, or held by real rules): only then the
// machine's line names NCCL's protocol, as report's table prints it only under --nccl auto.
let ncclPrices = false;
// The plan's budget and target as last settled: the plan searches again only once a person
// pauses typing them (PAUSE_MS) or leaves the box, not at every keystroke.
const PLAN_ASKS = ['budget', 'target'];
const PAUSE_MS = 500;
const settled = { budget: DEFAULTS.budget, target: DEFAULTS.target };
let settleTimer = 0;
function settle() {
  clearTimeout(settleTimer);
  settleTimer = 0;
  for (const field of PLAN_ASKS) settled[field] = state[field];
}
// The last frontier found, and the settings it was found for: a render whose settings are
// the same (the count moved, a point chosen) shows it again without searching.
let lastFrontier = null;
let lastFrontierKey = '';
let fragmentRead = ''; // the fragment the view was last read from or written to

// The state a fragment asks for; a value a select does not offer falls back to its default.
function readFragment() {
  fragmentRead = location.hash;
  const asked = new URLSearchParams(location.hash.slice(1));
  for (const field of FIELDS) {
    const value = asked.get(field);
    state[field] = value === null ? DEFAULTS[field] : value;
    if (SELECTS.includes(field) && ![...form.elements[field].options].some((o) => o.value === state[field])) state[field] = DEFAULTS[field];
  }
  state.rules = rulesValue(state.rules);
}

// The state into the controls (after a fragment is read).
function showState() {
  for (const field of FIELDS) {
    const control = form.elements[field];
    if (!control) continue; // pick: a point of the plan, chosen on the chart
    if (CHECKBOXES.includes(field)) control.checked = state[field] === '1';
    else control.value = state[field];
  }
}

// Every setting that differs from its default, into the fragment; a sandboxed frame may
// refuse, and the page then works on without it. configLinkable: the config is small.
function writeFragment(configLinkable) {
  // a fragment set from outside (a link) whose hashchange has not run yet is the view to
  // come: writing this one over it would lose it (the hashchange renders it)
  if (location.hash !== fragmentRead) return;
  const kept = FIELDS.filter((f) => state[f] !== DEFAULTS[f] && (f !== 'config' || configLinkable));
  const fragment = '#' + new URLSearchParams(kept.map((f) => [f, state[f]])).toString();
  if (location.hash === fragment || (fragment === '#' && location.hash === '')) return;
  try {
    history.replaceState(null, '', fragment);
  } catch {
    try { location.replace(fragment); } catch { /* keep the state in the page only */ }
  }
  fragmentRead = location.hash;
}

// A control's text as a number for the module: empty is 0 (the lesson's value, or none); a
// count must be written as digits, as on the command line, and anything else goes to the
// module as a count out of every range, which it refuses with its reason.
const whole = (text) => (text.trim() === '' ? 0 : /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : 4294967295);
const figure = (text) => (text.trim() === '' ? NaN : Number(text));

function status(id, text, bad = false) {
  $(id).textContent = text;
  $(id).classList.toggle('ex-bad', bad);
}

const STEP_STATUS = { model: 'model-status', config: 'model-status', gpu: 'gpu-status', link: 'link-status', log: 'link-status',
  frontier: 'plan-found', layout: 'plan-found' };

// The figures, or dashes when a setting cannot be priced.
function clearFigures() {
  for (const id of ['memory', 'time', 'waiting']) $(id).textContent = '—';
  for (const id of ['parts', 'usable-note', 'time-parts', 'speed', 'machine', 'searches', 'explain', 'axis-max', 'plan-found', 'layout-flags', 'layout-sums']) $(id).textContent = '';
  $('memory-bar').style.width = '0%';
  $('waiting-bar').style.width = '0%';
  for (const id of ['chart', 'marks', 'table', 'frontier', 'plan-table', 'ticks-across', 'ticks-up']) $(id).replaceChildren();
  $('plot').hidden = true;
  $('plan-fewest').hidden = true;
}

// Typed figures start as the catalogue entry's, the first time they are shown.
function startTyped(fields, figures) {
  for (const [field, value] of Object.entries(fields)) {
    if (state[field] === '') state[field] = String(figures[value]);
    form.elements[field].value = state[field];
  }
}

// The model: the pasted config when there is one, else the catalogue's. A pasted config the
// module refuses is not swapped for the catalogue's model: its refusal clears the figures
// (render), so no other model's figures stand beside it. Returns whether the config may go
// into the page's address.
function useModel() {
  const bits = whole(state.bits);
  showModelChoice(state.config.trim() !== '');
  if (state.config.trim() === '') {
    module.useModel(module.models.findIndex((m) => m.key === state.model), bits);
    return false;
  }
  try {
    module.useConfig(state.config, bits);
  } catch (error) {
    // the module names the command line's flag that would price it; this page's box for it
    const flag = error.step && error.message.match(/--bits (\d+)/);
    if (flag) error.message = `${error.message}. Here, that is ${flag[1]} in "Bits a weight".`;
    throw error;
  }
  const linkable = new TextEncoder().encode(state.config).length <= LINKABLE_CONFIG_BYTES;
  status('model-status', linkable ? 'Using your config.json.'
    : 'Using your config.json. It is over 2 KB, so the page\'s address cannot carry it: a link to this view shows the catalogue model.');
  return linkable;
}

// The model list names "your config.json" while a pasted one is in use (an option of its
// own, value ''), and the catalogue's model otherwise.
function showModelChoice(pasted) {
  const select = form.elements.model;
  let own = select.querySelector('option[value=""]');
  if (pasted && !own) {
    own = new Option('your config.json', '');
    select.prepend(own);
  }
  if (!pasted && own) own.remove();
  select.value = pasted ? '' : state.model;
}

function useMachine() {
  $('gpu-figures').hidden = state.gtyped !== '1';
  $('link-figures').hidden = state.ltyped !== '1';
  const gpu = module.useGpuKey(state.gpu);
  if (state.gtyped === '1') {
    startTyped({ gib: 'gib', usable: 'usable', gbw: 'bandwidth', flops: 'flops' }, gpu);
    module.useGpu({ gib: figure(state.gib), usable: figure(state.usable), bandwidth: figure(state.gbw), flops: figure(state.flops), arch: gpu.arch });
  }
  const link = module.useLinkKey(state.link);
  if (state.ltyped === '1') {
    startTyped({ lbw: 'bandwidth', step: 'step_us', base: 'base_us' }, link);
    module.useLink({ bandwidth: figure(state.lbw), step_us: figure(state.step), base_us: figure(state.base), kind: link.kind });
  }
  if (log.trim() !== '') {
    try {
      const fit = module.useLog(log);
      status('link-status', `Fitted to your log of ${fit.gpus} GPUs: the fit's regime at this model's message size, NCCL's base latency held (as gpusplit report --link-from). The log is not kept in the page's address.`);
    } catch (error) {
      if (!error.step) throw error;
      status('link-status', error.message, true);
    }
  }
  module.useBetweenKey(state.between);
  askRules(module, state);
  const planned = module.plan({
    split: state.split, words: whole(state.words), perServer: whole(state.per), chatTokens: whole(state.tokens),
    cacheBits: whole(state.cbits), cachePerChat: state.cpc === '1', overlap: state.overlap === '1',
    readCache: state.rcache === '1', divideHeads: state.heads === '1', ncclAuto: state.auto === '1',
  });
  showRules(planned.rules, state, form);
  ncclPrices = planned.rules.nccl === 'auto';
}

// The cards: the figures of one priced layout (the count chosen, or the plan's point chosen).
function showSetting(now) {
  const v = now.view;
  const protocol = now.fits && ncclPrices ? now.protocol : null;
  $('memory').textContent = v.memory;
  $('parts').textContent = `weights ${v.weights}, cache ${v.cache}, working ${v.working}`;
  $('usable-note').textContent = `of ${v.usable} a GPU can use${now.fits ? '' : ': it does not fit'}`;
  $('memory-bar').style.width = `${v.mem_bar}%`;
  $('time').textContent = v.time;
  $('time-parts').textContent = now.fits ? `reading ${v.read}, waiting ${v.transfer}` : '';
  $('speed').textContent = now.fits ? `${v.words_per_s} words a second for each chat, ${v.words_all} for all of them` : '';
  $('waiting').textContent = now.fits ? v.waiting : '—';
  $('waiting-bar').style.width = `${v.wait_bar}%`;
  $('machine').textContent = `${now.servers} server${now.servers === 1 ? '' : 's'}${protocol ? `; NCCL's ${protocol} protocol` : ''}`;
}

function mark(gpus, found, n) {
  return [gpus === found.fewest ? 'fewest that fit' : '', gpus === found.best ? 'best' : '', gpus === n ? 'chosen' : '']
    .filter((m) => m !== '').join(', ');
}

function showSweep(n) {
  const found = module.sweep();
  $('searches').textContent = `Fewest GPUs that fit (▲): ${found.fewest || 'none up to ' + module.maxGpus}. `
    + `Best count (★): ${found.best || 'none'}. Chosen (outlined): ${n}.`;
  const marks = [[found.fewest, '▲'], [found.best, '★']].filter(([gpus]) => gpus !== 0).map(([gpus, symbol]) => {
    const span = document.createElement('span');
    span.className = symbol === '★' ? 'ex-mark ex-mark-best' : 'ex-mark';
    span.style.gridColumn = String(gpus);
    span.textContent = symbol;
    return span;
  });
  $('marks').replaceChildren(...marks);
  $('axis-max').textContent = String(module.maxGpus);
  const columns = [];
  const rows = [];
  for (const row of found.rows) {
    const column = document.createElement('div');
    column.className = 'ex-col';
    column.style.gridColumn = String(row.gpus);
    column.dataset.gpus = String(row.gpus);
    column.title = `${row.gpus} GPUs: ${row.time}`;
    column.classList.toggle('ex-nofit', !row.fits);
    column.classList.toggle('ex-fewest', row.gpus === found.fewest);
    column.classList.toggle('ex-best', row.gpus === found.best);
    column.classList.toggle('ex-chosen', row.gpus === n);
    const wait = document.createElement('span');
    wait.className = 'ex-wait';
    wait.style.height = `${row.wait_bar}%`;
    const read = document.createElement('span');
    read.className = 'ex-read';
    read.style.height = `${row.read_bar}%`;
    column.append(wait, read);
    columns.push(column);
    const tr = document.createElement('tr');
    for (const text of [String(row.gpus), row.fits ? 'yes' : 'no', row.time, mark(row.gpus, found, n)]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    rows.push(tr);
  }
  if (!found.rows.some((row) => row.gpus === n)) {
    status('plan-status', `${n} GPUs do not divide the attention heads, so the chart and the searches leave this count out.`);
  }
  $('chart').replaceChildren(...columns);
  $('table').replaceChildren(...rows);
}

// The plan's frontier within the budget (csrc/core/plan.c), each point a button placed at
// the module's percentages; the picked point (state.pick, or the target's choice) shows its
// report flags and its sums.
function showFrontier() {
  const key = JSON.stringify([FIELDS.filter((f) => !['n', 'pick', ...PLAN_ASKS].includes(f)).map((f) => state[f]), log, settled]);
  if (key !== lastFrontierKey) {
    lastFrontierKey = key;
    try {
      lastFrontier = module.frontier(whole(settled.budget), settled.target.trim() === '' ? 0 : figure(settled.target), 0);
    } catch (error) {
      if (!error.step) throw error;
      lastFrontier = error; // the module's refusal, shown again until the settings change
    }
  }
  if (!(lastFrontier instanceof Error)) {
    placeFrontier(lastFrontier);
    return;
  }
  for (const id of ['layout-flags', 'layout-sums']) $(id).textContent = '';
  for (const id of ['frontier', 'plan-table', 'ticks-across', 'ticks-up']) $(id).replaceChildren();
  $('plot').hidden = true;
  $('plan-fewest').hidden = true;
  status('plan-found', lastFrontier.message, true);
}

// What the search says: the layouts tried, which counts past 64 (when not every one), and
// the target's choice, or why none meets it, or why none fits (the module's words).
function foundText(found) {
  const target = found.choice ? `The filled point is the best within ${settled.target} ms a word.` : `None meets the target: ${found.why}.`;
  return [`${found.tried} layouts tried; ${found.points.length} on the frontier.`, found.searched === '' ? '' : `${found.searched}.`,
    found.targeted ? target : found.points.length === 0 ? `No layout fits: ${found.why}.` : ''].filter((t) => t !== '').join(' ');
}

// The frontier's points as the chart holds them: the target's choice after them when it is
// not one of them.
const chartPoints = (found) => (found.choice && found.choice.index >= found.points.length ? [...found.points, found.choice] : found.points);

// Every point of the frontier and its table (web/src/explorer_chart.js); the point chosen
// (state.pick) sets the cards and the sum, the target's choice only the lines below the chart.
// A budget that holds no layout names the fewest GPUs that would, with a button to use them.
function placeFrontier(found) {
  const all = chartPoints(found);
  $('plan-found').textContent = foundText(found);
  const picked = state.pick !== '' ? all.find((p) => String(p.index) === state.pick) || null : null;
  drawChart(found, picked);
  const shown = picked || found.choice;
  $('layout-flags').textContent = shown ? `${shown.engine} (${shown.lesson}): ${shown.figures}. As report flags: ${shown.flags}` : '';
  $('layout-sums').textContent = '';
  if (shown) {
    const priced = module.layout(shown.index);
    $('layout-sums').textContent = priced.sums;
    if (picked) {
      showSetting(priced.setting);
      $('explain').textContent = priced.sums;
      status('plan-status', `These figures are the plan's point ${picked.engine} (${picked.lesson}); move the GPU count to go back to the controls' layout.`);
    }
  }
  const fewest = found.points.length === 0 && !found.targeted ? found.fewest : 0;
  $('plan-fewest').hidden = fewest === 0;
  if (fewest) {
    $('fewest-text').textContent = `A budget of ${whole(settled.budget)} GPUs holds no layout of this model: it needs at least ${fewest}.`;
    $('use-fewest').textContent = `Use a budget of ${fewest} GPUs`;
    $('use-fewest').value = String(fewest);
  }
}

// The chart's point now (the one chosen, else the target's choice, else none: -1) and how
// many it holds, for its arrow keys.
const pointNow = () => (state.pick !== '' ? Number(state.pick) : lastFrontier && !(lastFrontier instanceof Error) && lastFrontier.choice ? lastFrontier.choice.index : -1);
const pointCount = () => (lastFrontier && !(lastFrontier instanceof Error) ? chartPoints(lastFrontier).length : 0);

// A point chosen on the chart or in the table.
function pickPoint(index) {
  state.pick = String(index);
  render();
}

// The budget the fewest button names, searched at once.
function useFewest() {
  state.budget = $('use-fewest').value;
  form.elements.budget.value = state.budget;
  state.pick = '';
  settle();
  render();
}

function render() {
  if (!module) return;
  for (const id of ['model-status', 'gpu-status', 'link-status', 'plan-status', 'plan-found']) status(id, '');
  $('n-out').textContent = state.n;
  let linkable = false;
  try {
    linkable = useModel();
    useMachine();
    const n = whole(state.n);
    showSetting(module.price(n));
    showSweep(n);
    $('explain').textContent = module.explain(n);
    showFrontier();
  } catch (error) {
    if (!error.step) throw error;
    clearFigures();
    clearRules(state, form);
    status(STEP_STATUS[error.step] || 'plan-status', error.message, true);
  }
  laterWriteFragment(linkable);
}

// The fragment is written once the view has rested for FRAGMENT_DELAY_MS, as the widget's
// is (web/src/fragment_delay.js): a slider dragged renders many times a second, browsers cap
// history writes, and history.replaceState forces style and layout, which inside a slider
// step would make the step wait for it. The write takes the last render's state.
let fragmentTimer = 0;
function laterWriteFragment(linkable) {
  clearTimeout(fragmentTimer);
  fragmentTimer = setTimeout(() => writeFragment(linkable), FRAGMENT_DELAY_MS);
}

// Handlers only write the state, then render.
function onInput(event) {
  const control = event.target;
  if (!FIELDS.includes(control.name) && control.name !== 'log') return;
  if (control.name === 'log') log = control.value;
  else state[control.name] = control.type === 'checkbox' ? (control.checked ? '1' : '') : control.value;
  if (control.name === 'model') {
    // a catalogue model chosen ends the pasted config
    if (state.model === '') state.model = DEFAULTS.model;
    state.config = '';
    form.elements.config.value = '';
  }
  state.pick = ''; // the frontier's points change with any setting
  if (PLAN_ASKS.includes(control.name)) {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      settle();
      render();
    }, PAUSE_MS);
  }
  render();
}

// Leaving the budget or the target (or Enter) searches at once.
function onChange(event) {
  if (!PLAN_ASKS.includes(event.target.name) || PLAN_ASKS.every((f) => settled[f] === state[f])) return;
  settle();
  render();
}

// A config.json or log dropped on its box is read as text, as if pasted.
function takeDrops(box) {
  box.addEventListener('dragover', (event) => event.preventDefault());
  box.addEventListener('drop', async (event) => {
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    box.value = await file.text();
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

// The chart's columns pick a count with the mouse; the slider above does it by keyboard.
function onChartClick(event) {
  const column = event.target.closest('.ex-col');
  if (!column) return;
  state.n = column.dataset.gpus;
  form.elements.n.value = state.n;
  render();
}

function fill(select, entries) {
  select.replaceChildren(...entries.map((e) => new Option(e.name, e.key)));
}

// The module travels gzip-compressed; the browser's own DecompressionStream opens it.
async function wasmBytes() {
  const packed = Uint8Array.from(atob(WASM_GZIP_BASE64), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

async function start() {
  try {
    module = await openExplorer(await wasmBytes());
  } catch (error) {
    $('error').hidden = false;
    $('error').textContent = 'The explorer could not start: ' + error.message;
    return;
  }
  fill(form.elements.model, module.models);
  fill(form.elements.gpu, module.gpus);
  fill(form.elements.link, module.links);
  fill(form.elements.between, module.links);
  fillEngines(form.elements.engine, module.engines);
  form.elements.n.max = String(module.maxGpus);
  readFragment();
  showState();
  settle();
  // 'input' draws: selects, checkboxes and the slider fire it too; 'change' only settles
  // the plan's budget and target when their box is left, so nothing is drawn twice
  form.addEventListener('input', onInput);
  form.addEventListener('change', onChange);
  form.addEventListener('submit', (event) => event.preventDefault());
  $('chart').addEventListener('click', onChartClick);
  listenChart(pickPoint, pointNow, pointCount);
  $('use-fewest').addEventListener('click', useFewest);
  takeDrops($('config'));
  takeDrops($('log'));
  addEventListener('hashchange', () => {
    readFragment();
    showState();
    settle();
    render();
  });
  render();
}

start();
