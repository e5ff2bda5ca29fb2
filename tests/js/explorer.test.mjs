// The committed explorer (web/explorer.html): a fresh build of today's C, within its size,
// asking the network for nothing, its script placing the module's strings and computing
// none; and its module (build/explorer.wasm) giving `gpusplit report`'s figures for every
// catalogue model.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { openExplorer } from '../../web/src/explorer_module.js';
import { EVERY_COUNT } from './cli_report.mjs';
import { builtWith, fieldDifferences, inlinedModule, nativeExplain, path, toolchain, wasmBytes, withoutModule } from './support.mjs';
import { GPU, LINK, RULES, SETTING } from '../../web/src/fields.js';

const committed = readFileSync(path('web/explorer.html'), 'utf8');
const fresh = readFileSync(path('build/explorer.html'), 'utf8');
const page = committed.slice(0, committed.indexOf('<script'));
// the page's script and the chart's and the rules' parts, which it imports
const source = ['web/src/explorer.js', 'web/src/explorer_chart.js', 'web/src/explorer_rules.js']
  .map((f) => readFileSync(path(f), 'utf8')).join('\n');

const build = suite('the committed explorer is a fresh build');
const made = builtWith('explorer.html');
const here = toolchain();

// Bytes only where this machine builds the committed bytes (web/BUILT_WITH); elsewhere
// the page outside its module and the module's answers are held to today's build below.
if (made === here) {
  build('web/explorer.html is byte for byte what `make explorer` builds from today\'s sources', () => {
    assert.ok(committed === fresh, 'web/explorer.html is stale: run make explorer and commit it');
  });

  build('the gzip-compressed module inside it opens to build/explorer.wasm byte for byte', () => {
    assert.ok(inlinedModule(committed), 'no base64 module found in the script');
    assert.ok(inlinedModule(committed).equals(wasmBytes('build/explorer.wasm')));
  });
} else {
  console.log(`explorer.test: web/explorer.html was built with ${made}, this machine has ${here}: `
    + 'another compiler or zopfli gives other bytes, so its bytes are not compared; its page and its module\'s answers are');
}

build('outside its module, web/explorer.html is what `make explorer` builds today', () => {
  assert.is(withoutModule(committed), withoutModule(fresh), 'web/explorer.html is stale: run make explorer and commit it');
});

build('its module answers every catalogue model on a machine of servers as today\'s build/explorer.wasm does', async () => {
  const old = await openExplorer(inlinedModule(committed));
  const now = await openExplorer(wasmBytes('build/explorer.wasm'));
  const ask = (m, index) => {
    m.useModel(index, 0);
    m.useGpuKey('a100-80gb-sxm');
    m.useLinkKey('nvlink3');
    m.useBetweenKey('ib-ndr');
    m.plan({ split: 'slices-groups', words: 16, perServer: 8, chatTokens: 0, cacheBits: 0, ncclAuto: true });
    const swept = m.sweep();
    return { swept, priced: swept.rows.map((row) => m.price(row.gpus)), explain: m.explain(8) };
  };
  assert.equal(old.models, now.models);
  for (const index of now.models.keys()) assert.equal(ask(old, index), ask(now, index), now.models[index].key);
});

build('its module imports nothing', () => {
  assert.equal(WebAssembly.Module.imports(new WebAssembly.Module(wasmBytes('build/explorer.wasm'))), []);
});

build.run();

const alone = suite('the explorer stands alone');

alone('it is at most 128 KiB', () => {
  assert.ok(Buffer.byteLength(committed) <= 128 * 1024, `${Buffer.byteLength(committed)} bytes`);
});

alone('it names no URL and calls nothing that reaches the network', () => {
  for (const word of ['http://', 'https://', 'fetch(', 'XMLHttpRequest', 'WebSocket', 'sendBeacon', 'import(', 'EventSource']) {
    assert.not.ok(committed.includes(word), word);
  }
  assert.not.ok(/\ssrc=/.test(committed), 'an element loads a src');
  assert.not.ok(committed.includes('@import'), 'a stylesheet imports another');
});

alone('its Content-Security-Policy allows no connection, and wasm by name', () => {
  const csp = committed.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
  assert.ok(csp, 'no CSP meta tag');
  const rules = csp[1].split(';').map((r) => r.trim());
  assert.ok(rules.includes("default-src 'none'"));
  assert.not.ok(rules.some((r) => r.startsWith('connect-src')), 'connect-src widens default-src');
  assert.ok(rules.some((r) => r.startsWith('script-src') && r.includes("'wasm-unsafe-eval'") && !r.includes("'unsafe-inline'")));
});

alone.run();

const dom = suite('the explorer\'s page and script agree');

dom('every element the script looks up exists in the page', () => {
  // explorer.js's $, and the lookups its imported parts name their own
  const lookups = new Set([...source.matchAll(/(?:\$|chartEl|rulesEl)\('([\w-]+)'\)/g)].map((m) => m[1]));
  assert.ok(lookups.size > 10);
  const missing = [...lookups].filter((id) => !page.includes(`id="${id}"`));
  assert.equal(missing, []);
});

dom('every control has a label that names it', () => {
  const ids = [...page.matchAll(/<(?:input|select|textarea) id="([\w-]+)"/g)].map((m) => m[1]);
  assert.ok(ids.length > 15);
  const unlabelled = ids.filter((id) => !page.includes(`<label for="${id}"`) && !new RegExp(`<label[^>]*><input id="${id}"`).test(page));
  assert.equal(unlabelled, []);
});

dom('the explorer\'s script does no arithmetic or rounding on figures', () => {
  for (const banned of ['Math.', 'toFixed', 'toPrecision', 'toLocaleString', 'Intl.', ' * ', ' / ', ' - ', 'parseFloat', '+=', '-=']) {
    assert.not.ok(source.includes(banned), banned);
  }
});

dom.run();

const parity = suite('the explorer\'s module gives `gpusplit report`\'s figures');

// Each catalogue model on each of these machines, at every count from 1 to 64, by the
// lesson's rules, which the explorer prices by (csrc/wasm/explorer.c).
const MACHINES = [
  { flags: ['--assume', 'lesson', '--gpu', 'h100-sxm', '--link', 'nvlink4'], gpu: 'h100-sxm', link: 'nvlink4', plan: {} },
  { flags: ['--assume', 'lesson', '--gpu', 'a100-80gb-sxm', '--link', 'nvlink3', '--per-server', '8', '--between', 'ib-ndr', '--words', '16', '--nccl', 'auto'],
    gpu: 'a100-80gb-sxm', link: 'nvlink3', plan: { perServer: 8, words: 16, ncclAuto: true } },
  { flags: ['--assume', 'lesson', '--gpu', 'l40s', '--link', 'pcie4', '--split', 'groups', '--cache-per-chat', '--words', '4', '--bits', '8'],
    gpu: 'l40s', link: 'pcie4', bits: 8, plan: { split: 'groups', words: 4, cachePerChat: true } },
];

parity('every catalogue model on three machines: every figure of each count, the fewest and the best', async () => {
  const module = await openExplorer(wasmBytes('build/explorer.wasm'));
  assert.ok(module.models.length > 20);
  let checked = 0;
  for (const machine of MACHINES) {
    for (const [index, entry] of module.models.entries()) {
      const cli = JSON.parse(nativeExplain(['--model', entry.key, ...machine.flags, '--counts', EVERY_COUNT, '--json']));
      const rows = new Map(cli.rows.map((row) => [row.gpus, row]));
      module.useModel(index, machine.bits || 0);
      // the GPU and link records come from the lists report's header is printed from
      assert.equal(fieldDifferences(GPU, cli.gpu, module.useGpuKey(machine.gpu)), [], `${entry.key}: the GPU`);
      assert.equal(fieldDifferences(LINK, cli.link, module.useLinkKey(machine.link)), [], `${entry.key}: the link`);
      module.useBetweenKey('ib-ndr');
      const planned = module.plan({ split: 'slices', words: 1, perServer: 0, chatTokens: 0, cacheBits: 0, ...machine.plan });
      assert.equal(fieldDifferences(LINK, cli.link, planned.link), [], `${entry.key}: the link as planned`);
      assert.is(planned.linkName, cli.link.name);
      const swept = module.sweep();
      assert.is(swept.fewest, cli.fewest ?? 0, `${entry.key}: fewest`);
      assert.is(swept.best, cli.best ?? 0, `${entry.key}: best`);
      for (const row of swept.rows) {
        const want = rows.get(row.gpus);
        const diff = fieldDifferences(SETTING, want, module.price(row.gpus));
        assert.equal(diff, [], `${entry.key} on ${row.gpus} GPUs, ${machine.flags.join(' ')}`);
        assert.is(row.time, want.view.time, `${entry.key} on ${row.gpus} GPUs: the chart's time`);
        checked++;
      }
    }
  }
  assert.ok(checked > 3000, `${checked} settings`);
});

// Real hardware's rules, which gs_resolve gives the fitted efficiency of the GPU's
// generation (data/efficiency.json): the module prices as `report --assume real`.
parity('under real rules, the module prices with the fitted efficiency as report --assume real does', async () => {
  const module = await openExplorer(wasmBytes('build/explorer.wasm'));
  let checked = 0;
  for (const [gpu, link] of [['h100-sxm', 'nvlink4'], ['a100-80gb-sxm', 'nvlink3'], ['l40s', 'pcie4']]) {
    for (const model of ['8b', '70b']) {
      const cli = JSON.parse(nativeExplain(['--model', model, '--assume', 'real', '--gpu', gpu, '--link', link, '--counts', '1,2,4,8', '--json']));
      assert.is(cli.efficiency.from.includes('fitted on'), true, `${model} on ${gpu}: ${cli.efficiency.from}`);
      module.useRules('real');
      module.useModel(module.models.findIndex((m) => m.key === model), 0);
      module.useGpuKey(gpu);
      module.useLinkKey(link);
      module.useBetweenKey('ib-ndr');
      module.plan({ split: 'slices', words: 1, perServer: 0, chatTokens: 0, cacheBits: 0 });
      for (const want of cli.rows) {
        assert.equal(fieldDifferences(SETTING, want, module.price(want.gpus)), [], `${model} on ${want.gpus} ${gpu}s`);
        checked++;
      }
    }
  }
  module.useRules('lesson');
  assert.ok(checked >= 18, `${checked} settings`);
});

// The page's rules (issue 30): 'gpu' takes the GPU's own (report with no --assume), an engine
// prices under real rules only, and a figure typed over a catalogue GPU replaces that figure
// only, so the rules stay and the assumptions name it: each as report --json, bit for bit.
parity('the GPU\'s own rules, an engine and a typed figure give report\'s figures and its Assumptions line', async () => {
  const module = await openExplorer(wasmBytes('build/explorer.wasm'));
  const ask = (model, gpu, link, rules, engine, typed) => {
    module.useRules(rules);
    module.useEngine(engine);
    module.useModel(module.models.findIndex((m) => m.key === model), 0);
    const sheet = module.useGpuKey(gpu);
    if (typed) module.useGpu({ ...sheet, ...typed });
    module.useLinkKey(link);
    module.useBetweenKey('ib-ndr');
    return module.plan({ split: 'slices', words: 16, perServer: 0, chatTokens: 0, cacheBits: 0 });
  };
  const cases = [
    [['70b', 'h100-sxm', 'nvlink4', 'gpu', '', null], []],
    [['70b', 'lesson', 'fast', 'gpu', '', null], []],
    [['8b', 'h200', 'nvlink4', 'real', 'vllm', null], ['--assume', 'real', '--engine', 'vllm']],
    [['8b', 'h200', 'nvlink4', 'lesson', 'vllm', null], ['--assume', 'lesson']],
    [['8b', 'a100-80gb-sxm', 'nvlink3', 'real', 'none', null], ['--assume', 'real', '--engine', 'none']],
    [['70b', 'h100-sxm', 'nvlink4', 'gpu', '', { bandwidth: 2e12 }], ['--gpu-bw', '2e12']],
    [['70b', 'h100-sxm', 'nvlink4', 'gpu', '', { bandwidth: 3.35e12 }], []],
  ];
  assert.ok(module.engines.includes('vllm') && !module.engines.includes('any'), module.engines.join(' '));
  const held = [];
  for (const [[model, gpu, link, rules, engine, typed], flags] of cases) {
    const planned = ask(model, gpu, link, rules, engine, typed);
    const cli = JSON.parse(nativeExplain(['--model', model, '--gpu', gpu, '--link', link, '--between', 'ib-ndr', '--words', '16',
      ...flags, '--counts', '1,2,4,8', '--json']));
    const label = `${model} ${gpu} ${rules} ${engine} ${JSON.stringify(typed)}`;
    // every figure of the rules record by its name in report's JSON; the engine, which
    // report's JSON does not print, is the one named while real rules hold
    const engineWanted = cli.assume === 'real' && engine !== '' ? engine : null;
    assert.equal(fieldDifferences(RULES, { ...cli, engine: engineWanted }, planned.rules), [], label);
    held.push(planned.rules.assume);
    for (const want of cli.rows) assert.equal(fieldDifferences(SETTING, want, module.price(want.gpus)), [], `${label}, ${want.gpus} GPUs`);
  }
  // the GPU's own rules: real for the catalogue's H100, typed figure or not; the lesson's GPU's
  assert.equal(held, ['real', 'lesson', 'real', 'lesson', 'real', 'real', 'real']);
  module.useRules('lesson');
  module.useEngine('');
});

parity('a bad config, a bad log and a bad figure each give one line and leave the module working', async () => {
  const module = await openExplorer(wasmBytes('build/explorer.wasm'));
  const line = (f) => {
    try {
      f();
    } catch (error) {
      return error.message;
    }
    return null;
  };
  assert.is(line(() => module.useConfig('{"hidden_size":4096}', 0)), 'num_hidden_layers: is missing');
  assert.is(line(() => module.useConfig('{"model_type":"llama","hidden_size":null}', 0)), 'hidden_size: is null, and it is required');
  assert.match(line(() => module.useConfig('not json', 0)), /^[^\n]+$/);
  module.useModel(0, 0);
  module.useGpuKey('h100-sxm');
  assert.match(line(() => module.useGpu({ gib: -1, usable: 0.9, bandwidth: 1e12, flops: 1e15, arch: 'hopper' })), /^gpu gib: [^\n]+$/);
  module.useModel(0, 0);
  module.useGpuKey('h100-sxm');
  module.useLinkKey('nvlink4');
  assert.match(line(() => module.useLog('# nccl-tests\nnothing here\n')), /^[^\n]+$/);
  module.useBetweenKey('ib-ndr');
  module.plan({ split: 'slices', words: 1, perServer: 0, chatTokens: 0, cacheBits: 0 });
  assert.ok(module.price(4).view.memory.endsWith(' GiB'));
  assert.match(line(() => module.plan({ split: 'slices', words: 1.5, perServer: 0, chatTokens: 0, cacheBits: 0 })), /^words: /);
});

parity.run();
