// axe-core on the widget and the embedding demo, in the light and the dark colour scheme.
// The page's CSP allows its own inline script by hash only, so this suite's browser
// context bypasses CSP (Playwright's bypassCSP) to inject axe; no other suite does.
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSuite, fileUrl, openPage, ROOT } from './harness.mjs';

const axeSource = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const a11y = browserSuite('accessibility, as axe-core sees it', { contextOptions: { bypassCSP: true } });

// axe's violations on the page now, one line each.
async function violations(page, options = {}) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate((opts) => window.axe.run(document, opts), options);
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

for (const colorScheme of ['light', 'dark']) {
  a11y(`in the ${colorScheme} scheme axe finds no violation on the default setting`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('widget.html'), { figures: false });
    await page.emulateMedia({ colorScheme });
    await page.reload();
    await page.waitForFunction(() => document.getElementById('memory').textContent !== '…');
    assert.equal(await violations(page), []);
    assert.equal(seen.problems, []);
  });

  a11y(`in the ${colorScheme} scheme axe finds no violation on a setting that does not fit`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('widget.html', '#model=405b&gpus=1&link=slow&split=groups&words=64'), { figures: false });
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction(() => document.getElementById('memory').textContent !== '…');
    assert.equal(await violations(page), []);
    assert.equal(seen.problems, []);
  });

  a11y(`in the ${colorScheme} scheme axe finds no violation on the embedding demo's own page`, async (ctx) => {
    const { page, seen } = await openPage(ctx, fileUrl('embed-demo.html'), { figures: false });
    await page.emulateMedia({ colorScheme });
    // the sandboxed frame cannot be reached by axe's frame messaging; the widget is checked above
    assert.equal(await violations(page, { iframes: false }), []);
    assert.equal(seen.problems, []);
  });
}

a11y.run();
