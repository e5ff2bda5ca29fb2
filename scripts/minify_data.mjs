// Writes each data file without whitespace and without its "_source" notes and each entry's "source" (which are for
// people, and which the model never reads) into a folder, for the WebAssembly module,
// whose size the widget's 40 KiB budget counts. JSON.stringify writes every number in
// the shortest form that reads back as the same double, so the values do not change.
// Usage: node scripts/minify_data.mjs OUTDIR data/a.json data/b.json ...
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

// With --lesson, the catalogues keep only the lesson's GPU and its two links, for the
// widget's module, which offers nothing else.
const args = process.argv.slice(2);
const lesson = args[0] === '--lesson';
const [outDir, ...files] = lesson ? args.slice(1) : args;
const LESSON_KEYS = new Set(['lesson', 'fast', 'slow']);
mkdirSync(outDir, { recursive: true });
const withoutNotes = (key, value) => (key.startsWith('_') || key === 'source' ? undefined : value);
for (const file of files) {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  for (const list of ['gpus', 'links']) {
    if (lesson && Array.isArray(data[list])) data[list] = data[list].filter((entry) => LESSON_KEYS.has(entry.key));
  }
  writeFileSync(join(outDir, basename(file)), JSON.stringify(data, withoutNotes));
}
