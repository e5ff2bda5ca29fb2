// `build/gpusplit report` as the explorer's tests read it: the table's rows, the fewest and
// best counts, and --explain's sums. The tests hold the explorer to these, never to
// numbers copied from the program. (Not a test file: uvu runs only *.test.mjs.)
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const GPUSPLIT = fileURLToPath(new URL('../../build/gpusplit', import.meta.url));
export const EVERY_COUNT = Array.from({ length: 64 }, (_, i) => i + 1).join(',');

const run = (flags) => execFileSync(GPUSPLIT, ['report', ...flags], { encoding: 'utf8' });

// The report's whole text, header and all.
export const reportText = run;

// The report table: { fewest, best, rows: Map(gpus -> row) }. A row's figures are the
// table's columns as printed (no unit); '-' where the row does not fit.
export function report(flags) {
  const text = run(flags);
  const count = (label) => {
    const m = text.match(new RegExp(`^${label} \\(up to \\d+\\): (\\w+)$`, 'm'));
    if (!m) throw new Error(`no "${label}" line in the report`);
    return m[1] === 'none' ? 0 : Number(m[1]);
  };
  const rows = new Map();
  const lines = text.split('\n');
  const head = lines.findIndex((l) => l.trim().startsWith('GPUs  weights GiB'));
  for (const line of lines.slice(head + 1)) {
    if (line.trim() === '') break;
    const f = line.trim().split(/\s+/);
    const row = {
      gpus: Number(f[0]), weights: f[1], cache: f[2], working: f[3], total: f[4], fits: f[5] === 'yes', read: f[6],
      wait: f[7], time: f[8], waiting: f[9], wordsPerS: f[10], allWordsPerS: f[11], bound: f[12],
    };
    const rest = f.slice(13).join(' ');
    row.protocol = (rest.match(/^(LL128|LL|Simple)\b/) || [null, ''])[1];
    row.servers = Number((rest.match(/(\d+) servers/) || [null, '1'])[1]);
    rows.set(row.gpus, row);
  }
  return { fewest: count('Fewest GPUs that fit'), best: count('Best GPU count'), rows };
}

// --explain --gpus n: the sums, without the header (the text after its first blank line).
export function explain(flags, n) {
  const text = run([...flags, '--explain', '--gpus', String(n)]);
  return text.slice(text.indexOf('\n\n') + 2);
}

// The one line report prints on stderr for bad input, and its exit status.
export function refusal(flags) {
  const r = spawnSync(GPUSPLIT, ['report', ...flags], { encoding: 'utf8' });
  return { status: r.status, line: r.stderr.trim() };
}

// A figure as the table prints it: the view's text up to its unit.
export const bare = (figure) => figure.split(' ')[0];
