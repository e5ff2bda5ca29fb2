// Builds the single-file explorer (scripts/single_page.mjs): web/src/explorer.html with
// its style, its script (web/src/explorer_module.js, then web/src/explorer.js with the
// web/src/explorer_chart.js and web/src/explorer_rules.js it imports) and the full
// catalogue's module inlined: about 95 KB, within the page's 128 KiB.
// Usage: node scripts/embed_explorer.mjs build/explorer.wasm build/explorer.html
import { writeFileSync } from 'node:fs';
import { read, singlePage } from './single_page.mjs';

const [wasmPath, outPath] = process.argv.slice(2);
if (!wasmPath || !outPath) {
  console.error('usage: node scripts/embed_explorer.mjs WASM OUT');
  process.exit(2);
}
writeFileSync(outPath, singlePage({
  html: read('explorer.html'),
  reader: 'explorer_module.js', script: 'explorer.js', style: 'explorer.css', wasmPath, wasmMarker: '__WASM_GZIP_BASE64__',
}));
