// The plan's frontier as a chart and a table (web/explorer.html). The module places every
// point and numbers the axes (csrc/emit/plan_chart.c); this file only moves its numbers and
// words into the page. The chart is one Tab stop, a listbox whose options are the points:
// the arrow keys move between them, fastest first (Left and Up to the faster, Right and
// Down to the busier), Home and End to the ends; the mouse clicks one. The table below it
// holds the same points, and is the chart's text alternative.

const chartEl = (id) => document.getElementById(id);

// A point's name: its layout in an engine's terms, the lesson's words, its figures and the
// report flags that price it.
export const pointName = (p) => `${p.engine} (${p.lesson}): ${p.figures}: ${p.flags}`;

// The point the arrow key `key` moves to from `at` (-1: none yet) among `count`; null for
// a key the chart does not take.
export function pointAfterKey(key, at, count) {
  const order = Array.from({ length: count }, (_, i) => i);
  if (count === 0) return null;
  if (key === 'Home') return order[0];
  if (key === 'End') return order.at(-1);
  if (key === 'ArrowLeft' || key === 'ArrowUp') return order.findLast((i) => i < at) ?? order[0];
  if (key === 'ArrowRight' || key === 'ArrowDown') return order.find((i) => i > at) ?? order.at(-1);
  return null;
}

// A tick of an axis: its number at the module's percent along it.
function tickOf(t, across) {
  const span = document.createElement('span');
  span.className = across ? 'ex-tick ex-tick-across' : 'ex-tick ex-tick-up';
  span.style.setProperty('--at', String(t.at));
  span.textContent = t.text;
  return span;
}

function dotOf(p, found, pick) {
  const dot = document.createElement('div');
  dot.className = 'ex-point';
  dot.id = `point-${p.index}`;
  dot.setAttribute('role', 'option');
  dot.style.setProperty('--x', String(p.x));
  dot.style.setProperty('--y', String(p.y));
  dot.dataset.index = String(p.index);
  dot.title = pointName(p);
  dot.setAttribute('aria-label', pointName(p));
  dot.setAttribute('aria-selected', String(pick !== null && p.index === pick.index));
  dot.classList.toggle('ex-chosen', found.choice !== null && p.index === found.choice.index);
  dot.classList.toggle('ex-picked', pick !== null && p.index === pick.index);
  return dot;
}

function rowOf(p, found, pick) {
  const tr = document.createElement('tr');
  const head = document.createElement('th');
  head.scope = 'row';
  const choose = document.createElement('button');
  choose.type = 'button';
  choose.className = 'ex-choose';
  choose.dataset.index = String(p.index);
  choose.textContent = p.engine;
  head.append(choose);
  tr.append(head);
  const marks = [found.choice !== null && p.index === found.choice.index ? 'the target\'s' : '', pick !== null && p.index === pick.index ? 'chosen' : '']
    .filter((m) => m !== '').join(', ');
  for (const text of [p.lesson, String(p.gpus), p.view.ms, p.view.chat, p.view.gpu, p.view.first || '—', p.flags, marks]) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(td);
  }
  tr.classList.toggle('ex-picked', pick !== null && p.index === pick.index);
  return tr;
}

// Every point of found (the module's frontier()) on the chart and in the table, pick (a
// point, or null) marked; the chart is hidden when there is none.
export function drawChart(found, pick) {
  const all = found.choice && found.choice.index >= found.points.length ? [...found.points, found.choice] : found.points;
  const plot = chartEl('frontier');
  chartEl('plot').hidden = all.length === 0;
  chartEl('plot').style.setProperty('--dot', String(found.dot));
  plot.replaceChildren(...all.map((p) => dotOf(p, found, pick)));
  if (pick) plot.setAttribute('aria-activedescendant', `point-${pick.index}`);
  else plot.removeAttribute('aria-activedescendant');
  chartEl('ticks-across').replaceChildren(...found.across.map((t) => tickOf(t, true)));
  chartEl('ticks-up').replaceChildren(...found.up.map((t) => tickOf(t, false)));
  chartEl('plan-table').replaceChildren(...all.map((p) => rowOf(p, found, pick)));
  chartEl('moved-note').hidden = !all.some((p) => p.moved);
}

// Where a click or a key on the chart or the table goes: onPick(index) for a point chosen.
export function listenChart(onPick, currentIndex, count) {
  const plot = chartEl('frontier');
  plot.addEventListener('click', (event) => {
    const dot = event.target.closest('.ex-point');
    if (dot) onPick(Number(dot.dataset.index));
  });
  plot.addEventListener('keydown', (event) => {
    const next = pointAfterKey(event.key, currentIndex(), count());
    if (next === null) return;
    event.preventDefault();
    onPick(next);
  });
  chartEl('plan-table').addEventListener('click', (event) => {
    const button = event.target.closest('.ex-choose');
    if (button) onPick(Number(button.dataset.index));
  });
}
