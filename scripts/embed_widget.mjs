// Builds the single-file widget (scripts/single_page.mjs): web/src/widget.html with its
// style, its script (web/src/module.js, then web/src/widget.js) and the lesson's module
// inlined, so that the page fits its 32 KiB budget; the sources stay readable in web/src/.
// Without scripts the page shows the lesson's opening view, in the native build's words.
// Usage: node scripts/embed_widget.mjs build/lesson.wasm build/widget.html
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fill, read, singlePage } from './single_page.mjs';

const [wasmPath, outPath] = process.argv.slice(2);
if (!wasmPath || !outPath) {
  console.error('usage: node scripts/embed_widget.mjs WASM OUT');
  process.exit(2);
}
const fixture = JSON.parse(execFileSync(new URL('../build/gpusplit', import.meta.url).pathname, ['fixture'],
  { encoding: 'utf8', maxBuffer: 1 << 26 }));
const opening = fixture.cases.find((c) => c.model === '70b' && c.gpus === 4 && c.link === 'fast' && c.split === 'slices' && c.words === 1).view;
const noscript = `70B on 4 GPUs over the fast link: ${opening.memory} a GPU, ${opening.time} a word, ${opening.waiting} of it waiting.`;

// The markup between <!--packed...--> and <!--/packed--> is all hidden until the script has
// run, so the page carries it packed as the module is, and the script unpacks it first: its
// 4 KB of markup travel in 1.5 KB (issue 20, the widget's 28 KB goal).
const html = fill(read('widget.html'), '__NOSCRIPT__', noscript);
const packed = html.match(/<!--packed[^>]*-->\n([\s\S]*)<!--\/packed-->\n/);
if (!packed) throw new Error('web/src/widget.html has no <!--packed--> part');
const bodyPath = outPath.replace(/\.html$/, '') + '.body.html';
writeFileSync(bodyPath, packed[1]);

writeFileSync(outPath, singlePage({
  html: html.replace(packed[0], ''),
  reader: 'lesson_module.js', script: 'widget.js', style: 'widget.css', wasmPath, wasmMarker: '__WASM_BASE85__', base85: true,
  body: { marker: '__BODY_BASE85__', path: bodyPath },
}));
