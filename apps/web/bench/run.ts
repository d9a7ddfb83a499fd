// `npm run bench -w apps/web [-- --runs N]`: builds the console once, then reports its initial
// JavaScript per screen and the Dashboard's cold first load in Chromium, each against its goal
// (issue 23, "Fast where users feel it") and the figure measured before the work on it.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

import { buildConsole } from './build';
import { kib, reportBundleSize } from './bundle-size';
import { benchFirstLoad, median } from './first-load';

const at = process.argv.indexOf('--runs');
const runs = at > 0 ? Number(process.argv[at + 1]) : 5;
/** `--trace FILE`: also write a Chromium performance trace of the last load there. */
const trace = process.argv.includes('--trace')
  ? process.argv[process.argv.indexOf('--trace') + 1]
  : undefined;
/** `--requests`: also list every request of the last load. */
const listRequests = process.argv.includes('--requests');

/**
 * Measured with this bench before the first-load work (commit c915368; median of 7 cold loads on
 * this two-core machine, load average near 14): 104 scripts, 14 API calls, no compression.
 */
const BEFORE = { fmpMs: 1707, requests: 120, transferred: 1_015_706, jsGzip: 302_797 };
const GOALS = { fmpMs: 800, requests: 30, jsGzip: 250 * 1024 };

/** "figure  goal ≤ x (ratio) · before y": a ratio ≤ 1 meets the goal. */
function line(
  label: string,
  value: number,
  goal: number | null,
  before: number,
  show: (n: number) => string,
) {
  const against =
    goal === null
      ? ''
      : `goal ≤ ${show(goal)} (${(value / goal).toFixed(2)}× goal${value <= goal ? ', met' : ', NOT met'})`;
  const was = before ? `before ${show(before)} (${(value / before).toFixed(2)}× before)` : '';
  console.log(
    `  ${label.padEnd(34)} ${show(value).padStart(10)}   ${against}${against && was ? ' · ' : ''}${was}`,
  );
}

const outDir = mkdtempSync(path.join(tmpdir(), 'cumulus-console-'));
try {
  const chunks = await buildConsole(outDir);
  const screens = reportBundleSize(outDir, chunks);

  console.log(
    `\nDashboard first load, signed in, cold cache, Chromium (median of ${runs}; load average ${loadavg()[0]!.toFixed(1)}):`,
  );
  const { loads, indexCacheControl } = await benchFirstLoad(outDir, runs, trace);
  const ms = (n: number) => `${Math.round(n)} ms`;
  const count = (n: number) => String(Math.round(n));
  const fmp = median(loads.map((load) => load.fmpMs));
  line('first meaningful paint', fmp, GOALS.fmpMs, BEFORE.fmpMs, ms);
  console.log(`    each load: ${loads.map((load) => Math.round(load.fmpMs)).join(', ')} ms`);
  line(
    'requests to network idle',
    median(loads.map((l) => l.requests)),
    GOALS.requests,
    BEFORE.requests,
    count,
  );
  const last = loads[loads.length - 1]!;
  console.log(
    `    by type: ${Object.entries(last.byType)
      .sort((a, b) => b[1] - a[1])
      .map(([type, n]) => `${type} ${n}`)
      .join(', ')}`,
  );
  if (listRequests) for (const entry of last.log) console.log(`      ${entry}`);
  line('transferred', median(loads.map((l) => l.transferred)), null, BEFORE.transferred, kib);
  line('JavaScript fetched (gzip)', last.jsGzip, GOALS.jsGzip, BEFORE.jsGzip, kib);
  console.log(
    `    ${last.jsFiles} files; static closure of shell + Dashboard: ${kib(screens['signed-in shell (Dashboard)'].gzip)} gzip`,
  );
  const { assets } = last;
  console.log(
    `  hashed assets: ${assets.immutable}/${assets.total} immutable, ${assets.compressed}/${assets.total} compressed (${Object.entries(
      assets.encodings,
    )
      .map(([encoding, n]) => `${encoding} ${n}`)
      .join(', ')}); index.html: cache-control ${indexCacheControl}`,
  );
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
