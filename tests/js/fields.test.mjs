// web/src/fields.js, which both pages read figures by, is what scripts/fields_js.c writes
// from csrc/core/fields.h today, and names each figure once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import * as fields from '../../web/src/fields.js';
import { path } from './support.mjs';

const table = suite('the field table');

table('web/src/fields.js is byte for byte what `make fields` writes from csrc/core/fields.h', () => {
  const committed = readFileSync(path('web/src/fields.js'), 'utf8');
  const fresh = readFileSync(path('build/fields.js'), 'utf8');
  assert.ok(committed === fresh, 'web/src/fields.js is stale: run make fields and commit it');
});

table('each list names each figure once, and gives each buffer slot to one figure', () => {
  for (const [name, list] of Object.entries(fields)) {
    if (name === 'SWITCHES' || Array.isArray(list)) continue;
    const paths = list.fields.map(([p]) => p);
    assert.is(new Set(paths).size, paths.length, `${name}: a path twice`);
    for (const buffer of ['u64', 'f64', 'text']) {
      const kinds = { u64: ['u64'], f64: ['count', 'bool', 'f64', 'opt'], text: ['text', 'name'] }[buffer];
      const slots = list.fields.filter(([, kind]) => kinds.includes(kind)).map(([, , at]) => at).sort((a, b) => a - b);
      assert.equal(slots, Array.from({ length: list[buffer] }, (_, i) => i), `${name}: ${buffer} slots`);
    }
  }
});

table('the switches are enum gs_switch: one bit each, as both modules read them', () => {
  const bits = Object.values(fields.SWITCHES);
  assert.ok(bits.length >= 6 && bits.every((b) => Number.isInteger(b) && b > 0 && (b & (b - 1)) === 0), 'a switch is not one bit');
  assert.is(new Set(bits).size, bits.length, 'two switches share a bit');
});

table('an enum\'s names (ARCHS, LINK_KINDS) are distinct words, as report\'s JSON writes them', () => {
  for (const names of [fields.ARCHS, fields.LINK_KINDS]) {
    assert.ok(names.length >= 3 && names.every((n) => /^[a-z]+$/.test(n)), names.join(' '));
    assert.is(new Set(names).size, names.length);
  }
  assert.is(fields.ARCHS.indexOf('hopper'), 3); // GS_ARCH_HOPPER
  assert.is(fields.LINK_KINDS.indexOf('net'), 2); // GS_LINK_NET
});

table.run();
