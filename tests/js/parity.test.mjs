// The WebAssembly module against the native build: the 180 settings the widget offers,
// then 10,000 seeded random settings. Doubles must be equal bit for bit (Object.is), byte
// counts exactly, strings exactly.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fieldDifferences, loadModule, nativeExplain, nativeFixture } from './support.mjs';
import { CHART, SETTING, TIMELINE } from '../../web/src/fields.js';

const RANDOM_SETTINGS = 10000;
const FAMILY_SETTINGS = 3000;
const MACHINE_SETTINGS = 3000;
const fixture = nativeFixture('--random', String(RANDOM_SETTINGS), '--families', String(FAMILY_SETTINGS),
  '--machines', String(MACHINE_SETTINGS), '--seed', '20261202');
const module = await loadModule();

// Every figure of one native setting against the module's answer, walked by the field
// table's names (web/src/fields.js); returns the differences.
const differences = (native, wasm) => fieldDifferences(SETTING, native, wasm);

const offered = suite('the settings the widget offers');

offered('the fixture holds every one of the 3 x 5 x 2 x 2 x 3 = 180 settings', () => {
  assert.is(fixture.cases.length, 180);
  const keys = new Set(fixture.cases.map((c) => [c.model, c.gpus, c.link, c.split, c.words].join()));
  assert.is(keys.size, 180);
});

offered('the module offers the same GPU counts and words as the native build', () => {
  assert.equal(module.counts, fixture.counts);
  assert.equal(module.words, fixture.words);
});

offered('the field table names every figure the fixture gives, and no other', () => {
  const paths = (object, prefix = '') => Object.entries(object).flatMap(([key, value]) =>
    (value !== null && typeof value === 'object' && !Array.isArray(value) ? paths(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
  const { model, link, chart, timeline, ...setting } = fixture.cases[0];
  assert.equal(paths(setting).sort(), SETTING.fields.map(([path]) => path).sort());
  assert.equal(Object.keys(chart[0]).sort(), CHART.fields.map(([path]) => path).sort());
  assert.equal(Object.keys(timeline[0]).sort(), TIMELINE.fields.map(([path]) => path).sort());
});

offered('every number and string of all 180 settings is the native build\'s, bit for bit', () => {
  const bad = [];
  for (const c of fixture.cases) {
    module.useBuiltin(c.model, c.link);
    const diff = differences(c, module.setting(c.gpus, c.split, c.words));
    if (diff.length) bad.push(`${c.model} x${c.gpus} ${c.link} ${c.split} ${c.words}: ${diff.join('; ')}`);
  }
  assert.equal(bad, []);
});

offered('every GPU\'s timeline of all 180 settings is the native build\'s, bit for bit', () => {
  const bad = [];
  for (const c of fixture.cases) {
    module.useBuiltin(c.model, c.link);
    const got = module.timeline(c.gpus, c.split, c.words);
    assert.is(got.length, c.timeline.length);
    c.timeline.forEach((row, i) => {
      const diff = fieldDifferences(TIMELINE, row, got[i]);
      if (diff.length) bad.push(`${c.model} x${c.gpus} ${c.split} GPU ${i}: ${diff.join('; ')}`);
    });
  }
  assert.equal(bad.slice(0, 5), []);
});

offered('every chart row of all 180 settings is the native build\'s, bit for bit', () => {
  const bad = [];
  for (const c of fixture.cases) {
    module.useBuiltin(c.model, c.link);
    const rows = module.chart(c.split, c.words);
    assert.is(rows.length, c.chart.length);
    rows.forEach((row, i) => {
      const diff = fieldDifferences(CHART, c.chart[i], row);
      if (diff.length) bad.push(`${c.model} ${c.link} ${c.split} ${c.words} row ${i}: ${diff.join('; ')}`);
    });
  }
  assert.equal(bad, []);
});

offered('the widget\'s leaner module (tables, no reader) gives all 180 settings and their sums bit for bit too', async () => {
  const lesson = await loadModule('build/lesson.wasm');
  const bad = [];
  for (const c of fixture.cases) {
    lesson.useBuiltin(c.model, c.link);
    const diff = differences(c, lesson.setting(c.gpus, c.split, c.words));
    if (diff.length) bad.push(`${c.model} x${c.gpus}: ${diff.join('; ')}`);
    module.useBuiltin(c.model, c.link);
    if (lesson.explain(c.gpus, c.split, c.words) !== module.explain(c.gpus, c.split, c.words)) bad.push(`${c.model} x${c.gpus}: sums`);
  }
  assert.equal(bad.slice(0, 5), []);
  assert.throws(() => lesson.useCustom('{"model_type":"llama"}', { gib: 80, usable: 0.92, bandwidth: 2e12, flops: 3e14 },
    { bandwidth: 6e11, step_us: 0.6, base_us: 6.6 }), /reads no config.json/);
});

offered('the fewest GPUs that fit are the command line\'s, in both modules (the lesson: 1, 2 and 11)', async () => {
  const lesson = await loadModule('build/lesson.wasm');
  const found = [];
  for (const model of ['8b', '70b', '405b']) {
    for (const split of ['slices', 'groups']) {
      for (const words of [1, 64]) {
        const native = JSON.parse(nativeExplain(['--model', model, '--split', split, '--words', String(words), '--json'])).fewest;
        for (const m of [module, lesson]) {
          m.useBuiltin(model, 'fast');
          assert.is(m.fewest(split, words), native, `${model} ${split} ${words}`);
        }
        if (split === 'slices' && words === 1) found.push(native);
      }
    }
  }
  assert.equal(found, [1, 2, 11]);
});

offered('the lesson\'s opening view is 34.93 GiB, 18.94 ms and 8.7%', () => {
  // lesson, "Explore the numbers": 70B on 4 GPUs with the fast link
  module.useBuiltin('70b', 'fast');
  const view = module.setting(4, 'slices', 1).view;
  assert.equal([view.memory, view.time, view.waiting], ['34.93 GiB', '18.94 ms', '8.7%']);
});

offered('405B on 1 GPU does not fit', () => {
  module.useBuiltin('405b', 'fast');
  const now = module.setting(1, 'slices', 1);
  assert.is(now.fits, false);
  assert.is(now.view.time, 'Does not fit');
});

offered.run();

const random = suite('random settings');

random(`the fixture holds ${RANDOM_SETTINGS} random settings, both splits and several shapes`, () => {
  assert.is(fixture.random.length, RANDOM_SETTINGS);
  assert.ok(fixture.random.some((c) => c.split === 'groups') && fixture.random.some((c) => c.split === 'slices'));
  assert.ok(fixture.random.some((c) => c.fits) && fixture.random.some((c) => !c.fits));
  assert.ok(fixture.random.some((c) => 'head_dim' in c.config) && fixture.random.some((c) => !('head_dim' in c.config)));
});

random('the module reads each random config.json and computes what the native build does, bit for bit', () => {
  const bad = [];
  for (const [i, c] of fixture.random.entries()) {
    module.useCustom(JSON.stringify(c.config), c.gpu, c.link);
    const diff = differences(c, module.setting(c.gpus, c.split, c.words));
    if (diff.length) bad.push(`random ${i}: ${diff.join('; ')}`);
    if (bad.length > 5) break;
  }
  assert.equal(bad, []);
});

random(`${FAMILY_SETTINGS} random configs of every family: the module counts and prices them as the native build does`, () => {
  assert.is(fixture.families.length, FAMILY_SETTINGS);
  const types = new Set(fixture.families.map((c) => c.config.model_type));
  assert.ok(types.size >= 15, `only ${[...types].join(', ')}`);
  assert.ok(fixture.families.some((c) => c.config.quantization_config));
  const bad = [];
  for (const [i, c] of fixture.families.entries()) {
    module.useCustom(JSON.stringify(c.config), c.gpu, c.link);
    const diff = differences(c, module.setting(c.gpus, c.split, c.words));
    if (diff.length) bad.push(`family ${i} (${c.config.model_type}): ${diff.join('; ')}`);
    if (bad.length > 5) break;
  }
  assert.equal(bad, []);
});

random(`${MACHINE_SETTINGS} random settings past the lesson (servers, splits, caches, switches, NCCL's protocols): the module prices them as the native build does`, () => {
  assert.is(fixture.machines.length, MACHINE_SETTINGS);
  const seen = (f) => new Set(fixture.machines.map(f));
  assert.equal([...seen((c) => c.split)].sort(), ['groups', 'slices', 'slices-groups']);
  assert.equal([...seen((c) => c.protocol)].sort(), ['LL', 'LL128', 'Simple', null]);
  assert.ok(fixture.machines.some((c) => c.servers > 1));
  const bad = [];
  for (const [i, c] of fixture.machines.entries()) {
    module.useCustom(JSON.stringify(c.config), c.gpu, c.link);
    module.machine(c.machine);
    const diff = differences(c, module.setting(c.gpus, c.split, c.words));
    if (diff.length) bad.push(`machine ${i}: ${diff.join('; ')}`);
    if (bad.length > 5) break;
  }
  assert.equal(bad, []);
});

random('the sums --explain prints are the module\'s, word for word', () => {
  const explained = nativeExplain(['--explain', '--gpus', '4']);
  module.useBuiltin('70b', 'fast');
  // the module glues each term with no-break spaces for the page (gs_explain_glue); the
  // words are the same
  const sums = module.explain(4, 'slices', 1);
  assert.ok(sums.includes('70,553,706,496\u00a0x\u00a02\u00a0/\u00a04'), 'the page\'s sums glue no term');
  assert.ok(explained.endsWith(sums.replace(/\u00a0/g, ' ')), 'the module\'s sums differ from the command line\'s');
  assert.match(explained, /70,553,706,496 x 2 \/ 4 = 35,276,853,248/);
});

random.run();

const errors = suite('bad input to the module');

errors('a config that is not JSON is refused with the reason', () => {
  assert.throws(() => module.useCustom('{"hidden_size": 4096,', { gib: 80, usable: 0.92, bandwidth: 2e12, flops: 3e14 },
    { bandwidth: 6e11, step_us: 0.6, base_us: 6.6 }), /not valid JSON/);
});

errors('a missing field is named', () => {
  assert.throws(() => module.useCustom('{"hidden_size": 4096}', { gib: 80, usable: 0.92, bandwidth: 2e12, flops: 3e14 },
    { bandwidth: 6e11, step_us: 0.6, base_us: 6.6 }), /num_hidden_layers: is missing/);
});

errors('a usable share above 1 is refused', () => {
  const config = JSON.stringify(fixture.random[0].config);
  assert.throws(() => module.useCustom(config, { gib: 80, usable: 1.5, bandwidth: 2e12, flops: 3e14 },
    { bandwidth: 6e11, step_us: 0.6, base_us: 6.6 }), /gpu usable/);
});

errors('a split the model does not know is an error, not a free price', () => {
  module.useBuiltin('8b', 'fast');
  assert.throws(() => module.setting(2, 'diagonal', 1), /split: must be slices, groups or slices-groups/);
});

errors('a GPU count of 0 is refused', () => {
  module.useBuiltin('8b', 'fast');
  assert.throws(() => module.setting(0, 'slices', 1), /gpus: must be from 1 to 65536/);
});

errors.run();
