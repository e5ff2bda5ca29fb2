// The widget with the keyboard alone: Tab walks the five radio groups in order, arrow keys
// change a group's value, and the figures follow, each the fixture's for the new setting.
import * as assert from 'uvu/assert';
import { browserSuite, caseOf, DEFAULTS, expected, fileUrl, FIELDS, fragmentOf, openPage, shown } from './harness.mjs';

const keyboard = browserSuite('the keyboard alone');

// The focused element's group and value, or its tag if it is not a radio button.
const focused = (page) => page.evaluate(() => {
  const e = document.activeElement;
  return e && e.type === 'radio' ? { name: e.name, value: e.value, checked: e.checked } : { tag: e ? e.tagName : null };
});

keyboard('Tab reaches the five radio groups in order, each at its checked button', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  for (const field of FIELDS) {
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), { name: field, value: DEFAULTS[field], checked: true });
  }
  assert.equal(seen.problems, []);
});

keyboard('after the radios, Tab reaches the fit button of a setting that does not fit, the explorer link, then "Show the sum"; Enter works', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=4&link=fast&split=slices&words=1'));
  for (const field of FIELDS) await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement.id), 'fit-button');
  await page.keyboard.press('Enter');
  assert.equal(await shown(page), expected(caseOf(ctx.fixture, { model: '405b', gpus: 16, link: 'fast', split: 'slices', words: 1 })));
  assert.equal(await focused(page), { name: 'gpus', value: '16', checked: true });
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab'); // the gpus, link, split and words groups
  assert.is(await page.evaluate(() => document.activeElement.id), 'explore');
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('sum-text').textContent.includes('Memory on each'));
  assert.ok(await page.locator('#sum-text').isVisible());
  // the page glues each term with no-break spaces (csrc/core/explain.c, gs_explain_glue)
  const sumText = await page.locator("#sum-text").textContent();
  assert.match(sumText, /x\u00a02\u00a0\/\u00a016 =\u00a0/, sumText);
  assert.equal(seen.problems, []);
});

keyboard('ArrowRight on GPUs moves from 4 to 8 and shows the fixture\'s 70B figures for 8 GPUs', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await focused(page), { name: 'gpus', value: '4', checked: true });
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(page), { name: 'gpus', value: '8', checked: true });
  assert.equal(await shown(page), expected(caseOf(ctx.fixture, { ...DEFAULTS, gpus: '8' })));
  assert.equal(seen.problems, []);
});

keyboard('arrow keys change each group in turn, and every step shows the fixture\'s figures', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  const values = (field) => page.evaluate((f) => [...document.getElementById('controls').elements[f]].map((i) => i.value), field);
  const setting = { ...DEFAULTS };
  for (const field of FIELDS) {
    await page.keyboard.press('Tab');
    const offered = await values(field);
    // right (or down) steps forward and wraps; left (or up) steps back
    for (const [key, step] of [['ArrowRight', 1], ['ArrowDown', 1], ['ArrowLeft', -1], ['ArrowUp', -1], ['ArrowLeft', -1]]) {
      await page.keyboard.press(key);
      const at = offered.indexOf(setting[field]);
      setting[field] = offered[(at + step + offered.length) % offered.length];
      assert.equal(await focused(page), { name: field, value: setting[field], checked: true }, `${field} ${key}`);
      assert.equal(await shown(page), expected(caseOf(ctx.fixture, setting)), `${field} ${key}`);
    }
  }
  // Shift+Tab walks back through the groups
  for (const field of [...FIELDS].reverse().slice(1)) {
    await page.keyboard.press('Shift+Tab');
    assert.equal((await focused(page)).name, field);
  }
  assert.equal(seen.problems, []);
});

keyboard('a held arrow key writes the fragment once the view rests, not at every press, and the fragment ends on the last view', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await fragmentOf(page); // the load's own write, if any, done
  // count the widget's history writes from here on
  await page.evaluate(() => {
    window.writes = 0;
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { window.writes++; return replace(...args); };
  });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const presses = 12; // a key held for under half a second, each press well within the delay
  for (let i = 0; i < presses; i++) await page.keyboard.press('ArrowRight');
  const last = await focused(page);
  const hash = new URLSearchParams((await fragmentOf(page)).slice(1));
  assert.is(hash.get('gpus'), last.value, 'the fragment is not the last view');
  const writes = await page.evaluate(() => window.writes);
  assert.ok(writes >= 1 && writes <= presses / 2, `${writes} history writes for ${presses} presses`);
  assert.equal(seen.problems, []);
});

keyboard('the focused radio button shows a visible outline', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('widget.html'));
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  assert.is(outline.style, 'solid');
  assert.ok(outline.width >= 2, `${outline.width}px`);
  assert.equal(seen.problems, []);
});

keyboard.run();
