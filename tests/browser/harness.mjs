// Shared by the browser tests: Debian's Chromium driven by playwright-core (no browser is
// ever downloaded), a small static server for web/, the native build's fixture, and
// helpers that read what the widget shows. Each suite made by browserSuite() starts its
// own browser (and server) in `before` and stops both in `after`, which uvu runs in a
// `finally`, so a failing test still closes them.
import { suite } from 'uvu';
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, relative, resolve, isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WEB = join(ROOT, 'web');
export const SCREENSHOTS = join(ROOT, 'build', 'screenshots');
export const FIELDS = ['model', 'gpus', 'link', 'split', 'words'];
export const DEFAULTS = { model: '70b', gpus: '4', link: 'fast', split: 'slices', words: '1' };

// file:// URL of a page in web/, with an optional fragment.
export const fileUrl = (name, hash = '') => pathToFileURL(join(WEB, name)).href + hash;

// `gpusplit fixture`: every setting the widget offers, with the strings it must show.
export function fixture() {
  const out = execFileSync(join(ROOT, 'build', 'gpusplit'), ['fixture'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out);
}

// The fixture's case for a setting given as strings (the radio values) or numbers.
export function caseOf(fx, setting) {
  const key = (c) => FIELDS.map((f) => String(c[f])).join('/');
  const want = key(setting);
  const found = fx.cases.find((c) => key(c) === want);
  if (!found) throw new Error(`the fixture has no case ${want}`);
  return found;
}

// What the page must show for a case: the view's strings, and '—' for the waiting share
// of a setting that does not fit (the view gives "" there).
export function expected(c) {
  return {
    setting: Object.fromEntries(FIELDS.map((f) => [f, String(c[f])])),
    memory: c.view.memory,
    usable: c.view.usable,
    time: c.view.time,
    waiting: c.view.fits ? c.view.waiting : '—',
    chart: c.chart.map((row) => row.time),
  };
}

// What the page (or a frame) shows now, in the shape of expected().
export function shown(target) {
  return target.evaluate((fields) => {
    const text = (id) => document.getElementById(id).textContent;
    const form = document.getElementById('controls');
    return {
      setting: Object.fromEntries(fields.map((f) => [f, form.elements[f].value])),
      memory: text('memory'),
      usable: text('usable'),
      time: text('time'),
      waiting: text('waiting'),
      chart: [...document.querySelectorAll('#chart .gs-row-time')].map((e) => e.textContent),
    };
  }, FIELDS);
}

// The widget and the explorer write their fragment (and the host's mirror) once the view has
// rested this long after a render: the pages' own figure.
import { FRAGMENT_DELAY_MS } from '../../web/src/fragment_delay.js';
export { FRAGMENT_DELAY_MS };

// The page's fragment once the write the last render scheduled has run: a timer queued now
// for longer than that delay runs after it (timers run in the order of their deadlines).
export function fragmentOf(target) {
  return target.evaluate((delay) => new Promise((done) => setTimeout(() => done(location.hash), delay)), FRAGMENT_DELAY_MS + 100);
}

// What each canvas matched by `selector` draws (web/src/widget_bars.js paint), once the page has
// painted: `bars`, the bars the page asked it to draw ([from, to, kind, least], from and to
// in percent of its width), its width in CSS px, and `painted`, read back from its pixels:
// for each ink (read, wait, fg: the page's [data-ink] colours) the first and last CSS px
// of the columns holding a pixel of it, or null. A column counts when one of its pixels is
// at least a quarter opaque and within 48 of the ink in each channel.
export async function barsDrawn(target, selector) {
  await target.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return target.locator(selector).evaluateAll((canvases) => {
    const inks = Object.fromEntries([...document.querySelectorAll('#inks [data-ink]')].map((span) =>
      [span.dataset.ink, getComputedStyle(span).color.match(/\d+/g).slice(0, 3).map(Number)]));
    // read through a copy made for reading, so the page's own canvases are never read back
    const copy = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    return canvases.map((canvas) => {
      const { width, height } = canvas;
      const css = canvas.getBoundingClientRect().width;
      let pixels = [];
      if (width && height) {
        copy.canvas.width = width;
        copy.canvas.height = height;
        copy.drawImage(canvas, 0, 0);
        pixels = copy.getImageData(0, 0, width, height).data;
      }
      const painted = {};
      for (const [name, rgb] of Object.entries(inks)) {
        let first = -1, last = -1;
        for (let x = 0; x < width; x++) {
          for (let y = 0; y < height; y++) {
            const at = 4 * (y * width + x);
            if (pixels[at + 3] >= 64 && rgb.every((v, k) => Math.abs(pixels[at + k] - v) <= 48)) {
              if (first < 0) first = x;
              last = x;
              break;
            }
          }
        }
        painted[name] = first < 0 ? null : [first * css / width, (last + 1) * css / width];
      }
      return { bars: canvas.bars ?? null, width: css, painted };
    });
  });
}

// Waits until the module has drawn its first figures.
export function ready(target) {
  return target.waitForFunction(() => {
    const m = document.getElementById('memory');
    return m && m.textContent !== '…' && m.textContent !== '';
  });
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run'];

// Debian's Chromium with a fresh profile; close() stops it and removes the profile.
export async function openBrowser(contextOptions = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'gpusplit-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
      ...contextOptions,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  context.setDefaultTimeout(15000);
  return {
    context,
    async close() {
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml' };
const MAX_FILE = 1 << 20;
const MAX_REQUESTS = 10000;

// A static server on 127.0.0.1 (a free port) for the files under web/ and nothing else:
// GET and HEAD only, .html, .css, .js and .svg files up to 1 MiB, at most 10,000 requests and
// short timeouts. `requests` lists every path asked for, in order.
export async function startServer() {
  const requests = [];
  const server = createServer((req, res) => {
    requests.push(req.url);
    const refuse = (status) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(String(status));
    };
    if (requests.length > MAX_REQUESTS) return refuse(503);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405);
    let file;
    try {
      file = resolve(WEB, '.' + decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname));
    } catch {
      return refuse(400);
    }
    const inside = relative(WEB, file);
    if (!inside || inside.startsWith('..') || isAbsolute(inside) || inside.split(/[\\/]/).some((p) => p.startsWith('.'))) return refuse(404);
    const type = TYPES[extname(file)];
    let info;
    try {
      info = statSync(file);
    } catch {
      return refuse(404);
    }
    if (!type || !info.isFile() || info.size > MAX_FILE) return refuse(404);
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  server.maxConnections = 64;
  server.requestTimeout = 10000;
  server.headersTimeout = 5000;
  server.keepAliveTimeout = 1000;
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    requests,
    url: (name, hash = '') => `${origin}/${name}${hash}`,
    close() {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

// Records, for one page and its frames, every request and every console error or warning
// and uncaught exception.
export function watch(page) {
  const seen = { requests: [], problems: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') seen.problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.problems.push(`page error: ${error.message}`));
  return seen;
}

// The distinct URLs requested, without fragments, in the order first asked for.
export const requested = (seen) => [...new Set(seen.requests.map((url) => url.split('#')[0]))];

// A new page in the suite's browser, watched, at url, once its figures are drawn.
export async function openPage(ctx, url, { figures = true } = {}) {
  const page = await ctx.browser.context.newPage();
  const seen = watch(page);
  await page.goto(url);
  if (figures) await ready(page);
  return { page, seen };
}

export function screenshotPath(name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, name);
}

// A uvu suite with a browser (and, if asked, the static server) in its context:
// ctx.browser, ctx.server, ctx.fixture. Pages a test opens with openPage are closed
// after it.
export function browserSuite(name, { server = false, contextOptions = {} } = {}) {
  const test = suite(name);
  test.before(async (ctx) => {
    ctx.fixture = fixture();
    if (server) ctx.server = await startServer();
    ctx.browser = await openBrowser(contextOptions);
  });
  test.after.each(async (ctx) => {
    if (!ctx.browser) return;
    for (const page of ctx.browser.context.pages()) await page.close();
  });
  test.after(async (ctx) => {
    try {
      if (ctx.browser) await ctx.browser.close();
    } finally {
      if (ctx.server) await ctx.server.close();
    }
  });
  return test;
}
