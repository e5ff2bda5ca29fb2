// The lesson's four figures (web/figures/, `make figures`) read anywhere (issue 31): as an
// <img> on a white page under a dark system scheme their text keeps a contrast of at least
// 4.5:1 (WCAG 2.2, 1.4.3), measured on the pixels drawn; inlined in a page that sets the
// widget's custom properties, they follow them.
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { browserSuite, ROOT, screenshotPath, WEB } from './harness.mjs';

const FIGURES = ['weights-split', 'time-per-word', 'stops-helping', 'slices-vs-groups'];
const figureUrl = (name) => pathToFileURL(join(WEB, 'figures', `${name}.svg`)).href;

// A PNG as Playwright writes it (8 bits a channel, RGB or RGBA, not interlaced): its
// width and a function giving the pixel at (x, y) as [r, g, b].
function decodePng(png) {
  let at = 8, width = 0, height = 0, channels = 0;
  const data = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('not an 8-bit, non-interlaced PNG');
      channels = { 2: 3, 6: 4 }[body[9]];
      if (!channels) throw new Error(`PNG colour type ${body[9]}`);
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= channels ? out[y * stride + i - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, paeth][filter]) & 255;
    }
  }
  return { width, height, pixel: (x, y) => [0, 1, 2].map((k) => out[y * stride + x * channels + k]) };
}

// WCAG's relative luminance and contrast ratio.
const luminance = ([r, g, b]) => {
  const lin = (v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};
const contrast = (x, y) => (Math.max(luminance(x), luminance(y)) + 0.05) / (Math.min(luminance(x), luminance(y)) + 0.05);

const figures = browserSuite('the figures read anywhere');

figures('as <img> on a white page under a dark scheme, every text of the four figures has a contrast of at least 4.5:1', async (ctx) => {
  const page = await ctx.browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  const problems = [];
  for (const name of FIGURES) {
    mkdirSync(join(ROOT, 'build'), { recursive: true });
    // where each text is, in the figure's own units (its viewBox is its size in px)
    await page.goto(figureUrl(name));
    const boxes = await page.evaluate(() => [...document.querySelectorAll('text')].map((t) => {
      const b = t.getBBox();
      return { text: t.textContent, x: b.x, y: b.y, width: b.width, height: b.height };
    }));
    assert.ok(boxes.length >= 3, `${name}: ${boxes.length} texts`);
    const white = join(ROOT, 'build', `figure-${name}-on-white.html`);
    writeFileSync(white, `<!doctype html><meta name="color-scheme" content="light dark"><body style="margin:0;background:#ffffff">
      <img id="f" src="${figureUrl(name)}" alt=""></body>`);
    await page.goto(pathToFileURL(white).href);
    await page.waitForFunction(() => document.getElementById('f').complete && document.getElementById('f').naturalWidth > 0);
    const shot = decodePng(await page.locator('#f').screenshot({ path: screenshotPath(`figure-${name}-img-dark.png`) }));
    for (const box of boxes) {
      // the darkest pixel of the text's box against the white page: the glyphs' own colour
      let darkest = [255, 255, 255];
      for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(shot.height, Math.ceil(box.y + box.height)); y++) {
        for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(shot.width, Math.ceil(box.x + box.width)); x++) {
          if (luminance(shot.pixel(x, y)) < luminance(darkest)) darkest = shot.pixel(x, y);
        }
      }
      const ratio = contrast(darkest, [255, 255, 255]);
      if (ratio < 4.5) problems.push(`${name}: "${box.text}" at ${ratio.toFixed(2)}:1`);
    }
  }
  assert.equal(problems, []);
});

figures('opened alone under a dark scheme, a figure is drawn on white, as under a light one', async (ctx) => {
  const page = await ctx.browser.context.newPage();
  for (const name of FIGURES) {
    const seen = {};
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.goto(figureUrl(name));
      seen[colorScheme] = await page.evaluate(() => ({
        background: getComputedStyle(document.documentElement).backgroundColor,
        text: getComputedStyle(document.querySelector('text')).fill,
      }));
    }
    assert.equal(seen.dark, seen.light, name);
    assert.is(seen.dark.background, 'rgb(255, 255, 255)', name);
  }
});

figures('inlined in a page that sets the widget\'s custom properties, a figure follows them', async (ctx) => {
  const page = await ctx.browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  const svg = readFileSync(join(WEB, 'figures', 'time-per-word.svg'), 'utf8');
  await page.setContent(`<!doctype html><body style="background:#000;color:#fff;--gs-fg:#102030;--gs-read:#405060;--gs-wait:#708090;--gs-muted:#a0b0c0">${svg}</body>`);
  const got = await page.evaluate(() => ({
    text: getComputedStyle(document.querySelector('.gsf-text')).fill,
    read: getComputedStyle(document.querySelector('.gsf-read')).fill,
    hatch: getComputedStyle(document.querySelector('.gsf-hatch')).stroke,
    background: getComputedStyle(document.querySelector('svg')).backgroundColor,
  }));
  assert.equal(got, { text: 'rgb(16, 32, 48)', read: 'rgb(64, 80, 96)', hatch: 'rgb(112, 128, 144)', background: 'rgba(0, 0, 0, 0)' });
});

figures.run();
