// Writes each data file without whitespace and without its "_source" notes (which are for
// people, and which the model never reads) into a folder, for the WebAssembly module,
// whose size the widget's 40 KiB budget counts. JSON.stringify writes every number in
// the shortest form that reads back as the same double, so the values do not change.
// Usage: node scripts/minify_data.mjs OUTDIR data/a.json data/b.json ...
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const [outDir, ...files] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
const withoutNotes = (key, value) => (key.startsWith('_') ? undefined : value);
for (const file of files) {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(join(outDir, basename(file)), JSON.stringify(data, withoutNotes));
}
