// Hostile page inputs of issue 18 in Chromium: the explorer link whose config once froze
// the tab for good (DeepSeek with 2^53 layers, which the reader counted one at a time), a
// pasted log whose type column holds a line separator, and NCCL's own rules with a pasted
// log. Each must answer with report's one-line message, quickly.
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserSuite, fileUrl, openPage, ROOT } from './harness.mjs';
import { refusal } from '../js/cli_report.mjs';

const hostile = browserSuite('hostile');
const LOG = join(ROOT, 'tests', 'nccl-tests', 'dgx_h100_8gpu_nvidia_dgxc.txt');
// The page must answer within this: the reader refuses the count before any loop, so the
// answer takes milliseconds; the limit leaves room for a loaded 2-core machine, and a
// frozen tab never answers.
const LIMIT_MS = 5000;

const HUGE = JSON.stringify({
  model_type: 'deepseek_v3', hidden_size: 64, intermediate_size: 64, num_hidden_layers: 9007199254740992,
  num_attention_heads: 2, vocab_size: 10, kv_lora_rank: 4, qk_nope_head_dim: 4, qk_rope_head_dim: 4, v_head_dim: 4,
  n_routed_experts: 4, num_experts_per_tok: 2, moe_intermediate_size: 8,
});

const statusOf = (page, id) => page.evaluate((i) => document.getElementById(i).textContent, id);

hostile('the explorer link with 2^53 DeepSeek layers answers with report\'s message within the limit', async (ctx) => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusplit-hostile-'));
  try {
    const file = join(dir, 'huge.json');
    writeFileSync(file, HUGE);
    const cli = refusal(['--model', file]);
    assert.is(cli.status, 2);
    assert.ok(cli.line.endsWith('num_hidden_layers: 9007199254740992 is too large (at most 65536)'), cli.line);
    const url = fileUrl('explorer.html', '#' + new URLSearchParams({ config: HUGE }).toString());
    const started = Date.now();
    const { page, seen } = await openPage(ctx, url, { figures: false });
    await page.waitForFunction(() => document.getElementById('model-status').textContent !== '', null, { timeout: LIMIT_MS });
    const took = Date.now() - started;
    assert.ok(took < LIMIT_MS, `the page took ${took} ms`);
    const said = await statusOf(page, 'model-status');
    // the module names the field, the command line also the file: the reason is the same
    assert.is(said, 'num_hidden_layers: 9007199254740992 is too large (at most 65536)');
    assert.ok(await page.evaluate(() => document.getElementById('model-status').classList.contains('ex-bad')));
    // the page still works: a catalogue model is priced at once
    await page.fill('#config', '');
    await page.waitForFunction(() => document.getElementById('model-status').textContent === '', null, { timeout: LIMIT_MS });
    assert.equal(seen.problems, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

hostile('a log whose type holds U+2028 and a C1 control gives one escaped line', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html'));
  const text = readFileSync(LOG, 'utf8').replace(/ float /g, ' fl\u2028o\u0085at ');
  await page.fill('#log', text);
  await page.waitForFunction(() => document.getElementById('link-status').textContent !== '', null, { timeout: LIMIT_MS });
  const said = await statusOf(page, 'link-status');
  assert.ok(said.includes("type 'fl\\u2028o\\u0085at'"), said);
  assert.not.ok(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(said), 'a raw control or separator in the status');
  assert.equal(seen.problems, []);
});

hostile('NCCL\'s own rules with a pasted log are refused in one line, as report refuses --link-from', async (ctx) => {
  const { page, seen } = await openPage(ctx, fileUrl('explorer.html'));
  const cli = refusal(['--gpu', 'h100-sxm', '--link', 'nvlink4', '--nccl', 'auto', '--link-from', LOG]);
  assert.is(cli.status, 2);
  assert.ok(cli.line.includes('--link-from would go unused'), cli.line);
  await page.fill('#log', readFileSync(LOG, 'utf8'));
  await page.check('#auto');
  await page.waitForFunction(() => document.getElementById('plan-status').textContent !== '', null, { timeout: LIMIT_MS });
  const said = await statusOf(page, 'plan-status');
  // the same rule as report's (csrc/read/resolve.c), in the same words
  assert.is(`gpusplit: --${said}`, cli.line.trim());
  assert.equal(seen.problems, []);
});

hostile.run();
