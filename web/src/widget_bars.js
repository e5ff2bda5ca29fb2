// The widget's bars, drawn on canvases (web/src/widget.js asks, scripts/embed_widget.mjs
// inlines this file before it). Drawn as elements whose edges moved, each bar was restyled
// on every key press, which in the bench cost more than the rest of the press; a canvas
// that is drawn again is only painted again (issue 31). This file turns shares of a track
// into pixels and makes no text: the module formats every figure.
//
// A bar is [from, width, kind, least]: from and width in percent of the track (from null:
// where the bar before it ends), least a width in CSS px it is drawn at however short;
// kind is read or over (solid), wait (hatched) or limit (a line). A canvas keeps what it
// shows as bars, each [from, to, kind, least] in percent, for its next drawing and for
// the browser tests (tests/browser/harness.mjs barsDrawn).

// The inks are the page's custom properties as computed colours (web/src/widget.css,
// [data-ink]), read again when the colour scheme may have changed; every canvas that shows
// bars is drawn again in them.
const inks = {};
let hatch = null;
export function readInks(holder) {
  for (const span of holder.children) inks[span.dataset.ink] = getComputedStyle(span).color;
  hatch = null;
  for (const canvas of document.querySelectorAll('canvas')) if (canvas.bars) draw(canvas);
}

// The waiting's stripes, as CSS's repeating-linear-gradient(135deg, ink 0 3px, transparent
// 3px 6px) drew them: a square tile whose diagonal stripe and corners join its neighbours'.
// Made once for the screen's pixel ratio: a canvas's own ratio differs from it by rounding,
// and a tile made again for each cost the bench a third of a key press.
function hatchFor(context) {
  const scale = devicePixelRatio;
  if (hatch && hatch.scale === scale) return hatch.pattern;
  const side = Math.max(2, Math.round(6 * Math.SQRT2 * scale));
  const tile = document.createElement('canvas');
  tile.width = tile.height = side;
  const t = tile.getContext('2d');
  t.strokeStyle = inks.wait;
  t.lineWidth = side / 2 / Math.SQRT2;
  t.beginPath();
  for (const c of [0, side, 2 * side]) {
    t.moveTo(c - side - 1, side + 1);
    t.lineTo(c + 1, -1);
  }
  t.stroke();
  hatch = { scale, pattern: context.createPattern(tile, 'repeat') };
  return hatch.pattern;
}

const INK = { read: 'read', over: 'wait', limit: 'fg' };
// Plain loops, here and in paint: a key press's script runs before the engine optimizes
// it, where callbacks and destructuring cost several times a loop (issue 31).
function same(a, b) {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) for (let k = 0; k < 4; k++) if (a[i][k] !== b[i][k]) return false;
  return true;
}

// Draws a canvas's bars, unless it shows them already.
export function paint(canvas, asked) {
  let end = 0;
  const bars = [];
  for (let i = 0; i < asked.length; i++) {
    const bar = asked[i];
    const start = bar[0] ?? end;
    end = start + bar[1];
    bars.push([start, end, bar[2], bar[3] ?? 0]);
  }
  if (same(canvas.bars, bars)) return;
  canvas.bars = bars;
  // a canvas the sizer has not measured yet is at the default 300 by 150 pixels, and its
  // measuring sizes it again, which clears it, and draws it: drawn before, its first clear
  // made pixels to throw away (at load, 15 canvases: about 10 ms of the page's script in
  // a CPU profile, more than the module's compiling and pricing together)
  if (canvas.scale) draw(canvas);
}

// Draws the bars a canvas keeps, at its size and in the inks of now.
function draw(canvas) {
  const { width, height } = canvas;
  const scale = canvas.scale || 1; // device pixels to a CSS pixel, as the sizer measured them
  const context = canvas.context ??= canvas.getContext('2d'); // the same one every time
  context.clearRect(0, 0, width, height);
  for (let i = 0; i < canvas.bars.length; i++) {
    const bar = canvas.bars[i]; // [from, to, kind, least]
    const drawn = Math.max((bar[1] - bar[0]) / 100 * width, bar[3] * scale);
    if (!(drawn > 0)) continue;
    context.fillStyle = bar[2] === 'wait' ? hatchFor(context) : inks[INK[bar[2]]];
    context.fillRect(bar[0] / 100 * width, 0, drawn, height);
  }
}

// Each canvas holds as many device pixels as it shows, and is drawn again when that changes
// (a turned phone, a zoom, a row shown again). A hidden one keeps its pixels.
const sizer = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const canvas = entry.target;
    const css = entry.contentBoxSize[0];
    if (!(css.inlineSize > 0 && css.blockSize > 0)) continue;
    const device = entry.devicePixelContentBoxSize ? entry.devicePixelContentBoxSize[0]
      : { inlineSize: Math.round(css.inlineSize * devicePixelRatio), blockSize: Math.round(css.blockSize * devicePixelRatio) };
    if (canvas.width !== device.inlineSize) canvas.width = device.inlineSize;
    if (canvas.height !== device.blockSize) canvas.height = device.blockSize;
    canvas.scale = device.inlineSize / css.inlineSize;
    if (canvas.bars) draw(canvas);
  }
});
export const sizeBars = (canvas) => sizer.observe(canvas);

// Waiting of 1% or more of the step is drawn at least 4 px wide, however short: 0 px below
// 0.99% and 4 px from 0.994%, a ramp between (the true share is written beside it).
export const leastWaiting = (share) => Math.min(4, Math.max(0, (share - 0.99) * 1000));
