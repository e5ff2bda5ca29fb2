// The widget: one state object, input handlers that only write it, and one render()
// that draws everything from the module's answers. No figure is computed here. Its page's
// first script (web/src/widget_start.js) unpacks and runs it, its markup already in place.

import { FRAGMENT_DELAY_MS } from './fragment_delay.js';

// The page's elements by id, each looked up once: none is ever replaced.
const elements = new Map();
const $ = (id) => {
  let element = elements.get(id);
  if (!element) elements.set(id, element = document.getElementById(id));
  return element;
};
// the module, unpacked by web/src/widget_start.js, which ran this script
const opening = self.gpusplitWasm.then(openLesson);
opening.catch(() => {}); // its failure is shown below
const form = $('controls');
const FIELDS = ['model', 'gpus', 'link', 'split', 'words'];
// the opening view: the buttons the page checks (data/widget.json, scripts/embed_widget.mjs)
const DEFAULTS = Object.fromEntries(FIELDS.map((f) => [f, form.elements[f].value]));
const state = { ...DEFAULTS };
let theme = ''; // 'dark' or 'light' when the fragment forces one (embed.js passes it)
// Where the explorer is: beside the widget when the widget is a page of its own; in a frame
// only where the host has named it (data-gpusplit-explorer, which web/embed.js passes in as
// #explorer=NAME), since a framed widget cannot know whether the host copied explorer.html,
// and a link that 404s would lose the widget in its frame (issue 20). A name is a relative
// path to an .html file, so it can hold no scheme and leave no origin.
const EXPLORER = /^(?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]{0,80}\.html$/;
const FRAMED = window.parent !== window;
// A frame keeps room for its scrollbar whether it shows one or not: else a frame first too
// short shows one, the widget is laid out narrower and taller, the host grows the frame, the
// scrollbar goes and the widget is shorter than its frame; Chromium tells a frame below the
// fold of no such resize, so it stayed too tall until scrolled to (issue 31).
if (FRAMED) document.documentElement.style.scrollbarGutter = 'stable';
let explorer = FRAMED ? '' : 'explorer.html';
// The host's page mirrors the view only once the learner has changed it: a load, or the
// host's own fragment, is not the learner's doing (issue 20).
let learnerChanged = false;
let module = null;
let fragmentRead = ''; // the fragment the view was last read from or written to

// The values a control offers, as its radio buttons list them.
const choices = (field) => [...form.elements[field]].map((input) => input.value);

// The state a URL fragment asks for (#model=405b&gpus=16...); unknown values fall back.
function readFragment() {
  fragmentRead = location.hash;
  const asked = new URLSearchParams(location.hash.slice(1));
  for (const field of FIELDS) {
    const value = asked.get(field);
    state[field] = choices(field).includes(value) ? value : DEFAULTS[field];
  }
  theme = ['dark', 'light'].includes(asked.get('theme')) ? asked.get('theme') : '';
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  if (FRAMED) {
    const named = asked.get('explorer') || '';
    explorer = EXPLORER.test(named) && named.length <= 200 ? named : '';
  }
  $('explore-note').hidden = !explorer;
  // framed, the explorer opens in a tab of its own, and the widget stays in the page (web/embed.js)
  if (FRAMED) $('explore').target = '_blank';
}

// Writes the state back into the fragment, so a link reproduces the view. A sandboxed
// frame may refuse: the widget then works on without it.
function writeFragment() {
  // a fragment set from outside (a link, the host) whose hashchange has not run yet is the
  // view to come: writing this one over it would lose it (the hashchange re-renders and
  // schedules the write again)
  if (location.hash !== fragmentRead) return;
  const pairs = FIELDS.map((f) => [f, state[f]]);
  if (theme) pairs.push(['theme', theme]);
  const view = '#' + new URLSearchParams(pairs).toString();
  if (learnerChanged) postState(view);
  // the frame keeps the host's explorer name in its own fragment, so a reload keeps the link
  const fragment = FRAMED && explorer ? `${view}&${new URLSearchParams({ explorer })}` : view;
  if (location.hash === fragment) return;
  try {
    history.replaceState(null, '', fragment);
  } catch {
    try { location.replace(fragment); } catch { /* keep the state in the page only */ }
  }
  fragmentRead = location.hash;
}

// Tells an embedding page how tall the widget is, in CSS pixels, maybe fractional
// (web/embed-demo.html listens, and rounds up). It is the page's own box: scrollHeight
// is never less than the frame, so a frame sized by it could grow but never shrink back.
// Sent after every render as well as on a resize: Chromium neither paints a cross-origin
// frame below the fold nor runs its ResizeObserver, so a frame sized only by the observer
// kept its first height until scrolled to, then grew under the reader (issue 31). Sent only
// when it changes.
let lastHeight = 0;
function postHeight() {
  if (!FRAMED) return;
  const height = document.documentElement.getBoundingClientRect().height;
  if (height === lastHeight) return;
  lastHeight = height;
  window.parent.postMessage({ type: 'gpusplit:height', height }, '*');
}

// Tells an embedding page the view, so that its own URL can hold it (web/embed.js, with
// data-gpusplit-mirror). Sent only when it changes.
let lastState = '';
function postState(fragment) {
  if (window.parent === window || fragment === lastState) return;
  lastState = fragment;
  window.parent.postMessage({ type: 'gpusplit:state', fragment }, '*');
}

function showError(message) {
  $('error').hidden = false;
  $('error').textContent = 'The widget could not start: ' + message;
}

// Writes only what changed: setting a text to the one it already has still makes the
// browser lay the page out again, and most of a render repeats the last one.
function put(element, text) {
  const node = element.firstChild;
  // a lone text node takes the new words in place: a replaced node is taken out of the
  // page's layout and put back, which cost the bench a restyle and a relayout of its line
  if (node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) {
    if (node.data !== text) node.data = text;
  } else if (element.textContent !== text) element.textContent = text;
}
// Hides or shows an element, writing only a change: a write of the same value still
// makes the browser restyle.
function hide(element, hidden) {
  if (element.hidden !== hidden) element.hidden = hidden;
}

// `fromForm`: the form shows the state already (a learner's change), so it is not set again:
// a radio group looked up and set was a tenth of a key press's script (issue 31).
function render(fromForm = false) {
  if (!fromForm) for (const field of FIELDS) form.elements[field].value = state[field];
  if (!module) return;
  const gpus = Number(state.gpus);
  const words = Number(state.words);
  module.useBuiltin(state.model, state.link);
  // one call prices this setting and each offered count once (csrc/wasm/lesson.c, show)
  const shown = module.show(gpus, state.split, words);
  const now = shown.setting;
  const t = now.view;
  put($('memory'), t.memory);
  put($('parts'), `weights ${t.weights}, cache ${t.cache}, working ${t.working}`);
  put($('usable'), t.usable);
  paint($('memory-bar'), now.fits ? [[0, t.mem_bar, 'read']] : [[0, t.mem_bar, 'over'], [t.limit_bar, 0, 'limit', 2]]);
  put($('cache-note'), t.cache_note);
  showFit(now.fits, shown);
  put($('step-name'), t.step_name);
  put($('chart-name'), t.step_name);
  put($('time'), t.time);
  put($('words-note'), t.words_note);
  put($('waiting'), now.fits ? t.waiting : '—');
  paint($('waiting-bar'), [[0, t.wait_bar, 'wait', now.fits ? leastWaiting(t.wait_bar) : 0]]);
  put($('waiting-note'), t.waiting_note);
  const rows = shown.chart;
  const chart = $('chart');
  while (chart.children.length > rows.length) chart.lastChild.remove();
  while (chart.children.length < rows.length) {
    chart.insertAdjacentHTML('beforeend', '<li><span class="gs-count"></span><canvas class="gs-track" aria-hidden="true"></canvas><span class="gs-row-time"></span></li>');
    sizeBars(chart.lastChild.children[1]);
  }
  // indexed loops, not iterators or destructuring: a key press's script runs before the
  // engine optimizes it, where those cost several times a plain loop (issue 31)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const li = chart.children[i];
    li.classList.toggle('gs-current', row.gpus === gpus);
    put(li.children[0], row.gpus + (row.gpus === 1 ? ' GPU' : ' GPUs'));
    paint(li.children[1], [[0, row.read_bar, 'read'], [null, row.wait_bar, 'wait']]);
    put(li.children[2], row.time);
  }
  // the caption says how this split works (web/src/widget.html)
  hide($('how-slices'), state.split !== 'slices');
  hide($('how-groups'), state.split !== 'groups');
  drawTimeline($('timeline'), now, shown.timeline, $('axis'));
  hide($('timeline-none'), now.fits);
  put($('idle'), now.fits ? t.idle : '—');
  // groups of many words also show every group kept busy (csrc/wasm/lesson.c, kept_busy)
  hide($('busy'), !shown.busy);
  if (shown.busy) {
    const busy = module.keptBusy();
    const b = busy.setting.view;
    put($('busy-note'), b.batches_note);
    put($('busy-words'), busy.setting.fits ? b.words_all : b.time);
    put($('busy-each'), b.words_note);
    put($('busy-memory'), b.memory);
    put($('busy-cache'), b.cache_note);
    drawTimeline($('busy-timeline'), busy.setting, busy.timeline, $('busy-axis'));
    // the same GPUs and chats in slices, beside it (csrc/wasm/lesson.c, slices_beside)
    const sliced = module.slicesBeside();
    put($('slices-words'), sliced.fits ? sliced.view.words_all : sliced.view.time);
    put($('slices-each'), sliced.view.words_note);
  }
  // the explorer's names for this view (web/src/explorer.js): the lesson's GPU, n for the count,
  // and a plan's budget that holds the model: this count, or the fewest GPUs that hold it (the
  // module's search) when this count does not
  // (joined here, not by URLSearchParams from an object: that cost a press as much as the chart's rows)
  if (explorer) {
    $('explore').href = explorer + '#model=' + encodeURIComponent(state.model) + '&gpu=lesson&link=' + encodeURIComponent(state.link) +
      '&split=' + encodeURIComponent(state.split) + '&words=' + encodeURIComponent(state.words) + '&n=' + encodeURIComponent(state.gpus) +
      '&budget=' + (shown.fewest > gpus ? shown.fewest : gpus);
  }
  if ($('sum').open) showSum(module.explain());
  laterWriteFragment();
  postHeight();
}

// The fragment is written once the view has rested for FRAGMENT_DELAY_MS after the last
// render (web/src/fragment_delay.js says why); the host's mirror (postState) with it.
let fragmentTimer = 0;
function laterWriteFragment() {
  clearTimeout(fragmentTimer);
  fragmentTimer = setTimeout(writeFragment, FRAGMENT_DELAY_MS);
}

// One row a GPU: idle, reading, waiting, idle, each as wide as its share of the step; the
// idle spans are the track showing through. Slices read, then swap, twice in every layer:
// drawn layer by layer, 70B's 160 swaps on 4 GPUs were each a third of a pixel, so each row
// gathers its reading, then its waiting (the caption says so). A waiting is drawn at least as
// wide as the step's waiting share asks (leastWaiting). A screen reader hears the module's
// words for each row, the label of its drawing, instead. A setting that does not fit draws
// no rows and no axis; the axis is the step's quarters.
// the axis's labels past its first (0 ms): the step's quarters, the module's view.axis_1..axis_4
const AXIS = ['', 'axis_1', 'axis_2', 'axis_3', 'axis_4'];
function drawTimeline(list, setting, timeline, axis) {
  const rows = setting.fits ? timeline : [];
  // rows past the count are hidden, not removed: made again they cost a layout each (the bench)
  for (let i = 0; i < list.children.length; i++) hide(list.children[i], i >= rows.length);
  while (list.children.length < rows.length) {
    const li = document.createElement('li');
    li.innerHTML = '<span class="gs-count" aria-hidden="true"></span><canvas class="gs-track" role="img"></canvas>';
    li.firstChild.textContent = `GPU ${list.children.length + 1}`;
    list.append(li);
    sizeBars(li.lastChild);
  }
  const least = leastWaiting(setting.view.wait_bar);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const track = list.children[i].lastChild;
    paint(track, row.wait ? [[row.idle_before, row.read, 'read'], [null, row.wait, 'wait', least]] : [[row.idle_before, row.read, 'read']]);
    // an attribute no style rule reads: a changed label restyles nothing
    if (track.getAttribute('aria-label') !== row.text) track.setAttribute('aria-label', row.text);
  }
  hide(axis, !setting.fits);
  for (let i = 1; i < axis.children.length; i++) put(axis.children[i], setting.view[AXIS[i]]);
}

// The sums, each run of glued words (the module joins a term's parts with no-break spaces)
// in a span that never breaks (web/src/widget.css), so a line breaks only between terms.
function showSum(text) {
  const pre = $('sum-text');
  if (pre.textContent === text) return;
  pre.replaceChildren(...text.split(/([ \n]+)/).map((part, i) => {
    if (i % 2) return part;
    const span = document.createElement('span');
    span.textContent = part;
    return span;
  }));
}

// A setting that does not fit: the fewest GPUs that would hold it (the module's search),
// and a button to the smallest count the widget offers that does.
function showFit(fits, shown) {
  hide($('fit-note'), fits);
  if (fits) return;
  const fewest = shown.fewest;
  const offered = shown.chart.find((row) => row.fits);
  $('fewest').textContent = fewest ? `it needs at least ${fewest} GPUs` : `no count up to ${shown.budget} holds it`;
  hide($('fit-button'), !offered);
  if (offered) {
    $('fit-button').textContent = `Show ${offered.gpus} GPUs`;
    $('fit-button').value = String(offered.gpus);
  }
}

form.addEventListener('submit', (event) => event.preventDefault());
form.addEventListener('change', (event) => {
  state[event.target.name] = event.target.value;
  learnerChanged = true;
  render(true);
});
window.addEventListener('hashchange', () => {
  readFragment();
  readInks($('inks')); // the fragment may force a scheme
  render();
});
new ResizeObserver(postHeight).observe(document.documentElement);

$('fit-button').addEventListener('click', (event) => {
  state.gpus = event.target.value;
  learnerChanged = true;
  render();
  form.elements.gpus.forEach((input) => { if (input.checked) input.focus(); });
});
$('sum').addEventListener('toggle', () => render());

form.hidden = false;
$('results').hidden = false;
readFragment();
readInks($('inks'));
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => { readInks($('inks')); render(); });
for (const id of ['memory-bar', 'waiting-bar']) sizeBars($(id));
render();
opening
  .then((opened) => {
    module = opened;
    render();
  })
  .catch((error) => showError(error.message));
