// The Dashboard's first load as a signed-in user feels it: Debian's Chromium, cold cache (a fresh
// browser context each time), on the real server serving the built console, with a workspace that
// has a few clusters. Each load counts every request from navigation to network idle and the bytes
// on the wire, and times the first meaningful paint (FMP, defined below).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { BrowserContext } from 'playwright-core';
import { writeMigratedPglite } from '../../server/scripts/migrated-pglite.mjs';
import { apiAs, createVerifiedUser } from '../e2e/harness/api';
import { launchBrowser } from '../e2e/harness/browser';
import { eventually } from '../e2e/harness/journeys';
import { startE2eServer } from '../e2e/harness/server';
import { sizeOf } from './bundle-size';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const CLUSTER_NAMES = ['etl-nightly', 'feature-store', 'training-gpu', 'adhoc-ada'];
/** Network idle: nothing in flight for this long after the Dashboard painted. */
const IDLE_MS = 1_000;
const LOAD_DEADLINE_MS = 30_000;

export type LoadFigures = {
  /** First meaningful paint, ms since navigation start. */
  fmpMs: number;
  requests: number;
  /** Bytes on the wire (headers and encoded bodies), as Chromium counts them. */
  transferred: number;
  /** Requests by Chromium's resource type (Script, Fetch, Stylesheet...). */
  byType: Record<string, number>;
  /** Every request: ms since the first, Chromium's type, method and path. */
  log: string[];
  /** The JavaScript files the page fetched, gzip size (level 9) summed. */
  jsGzip: number;
  jsFiles: number;
  /** Hashed assets (/assets/*) fetched, and how many came immutable and compressed. */
  assets: { total: number; immutable: number; compressed: number; encodings: Record<string, number> };
};

// FMP: the first animation frame after the Dashboard's clusters table shows a seeded cluster's
// name (or its empty state is in the page), in ms since navigation start (performance.now() of the
// page). A MutationObserver installed before any of the console's scripts run watches for it, so
// the figure does not depend on how often the bench looks.
// (A string, not a function: tsx would wrap a function's inner names in helpers the page lacks.)
const fmpProbe = (names: string[]) => `(() => {
  const names = ${JSON.stringify(names)};
  const painted = () => {
    if (document.querySelector('[data-slot=clusters-empty]')) return true;
    const table = document.querySelector('[data-slot=data-table] tbody');
    return table !== null && names.some((name) => table.textContent.includes(name));
  };
  const observer = new MutationObserver(() => {
    if (!painted()) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__fmp = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

async function loadOnce(
  context: BrowserContext,
  url: string,
  outDir: string,
  names: string[],
  trace?: string,
): Promise<LoadFigures> {
  const page = await context.newPage();
  if (trace)
    await context.browser()?.startTracing(page, {
      path: trace,
      categories: [
        'devtools.timeline',
        'v8.execute',
        'blink.user_timing',
        'disabled-by-default-v8.cpu_profiler',
      ],
    });
  await page.addInitScript(fmpProbe(names));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });

  const byType: Record<string, number> = {};
  const inFlight = new Set<string>();
  const scripts = new Set<string>();
  const assets = { total: 0, immutable: 0, compressed: 0, encodings: {} as Record<string, number> };
  let requests = 0;
  let transferred = 0;
  let lastActivity = Date.now();
  const log: string[] = [];
  let first: number | undefined;
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url.startsWith('data:')) return;
    requests += 1;
    first ??= event.timestamp;
    const { pathname, search } = new URL(event.request.url);
    const at = `${Math.round((event.timestamp - first) * 1000)}`.padStart(6);
    log.push(`${at} ms  ${(event.type ?? 'Other').padEnd(10)} ${event.request.method} ${pathname}${search}`);
    byType[event.type ?? 'Other'] = (byType[event.type ?? 'Other'] ?? 0) + 1;
    inFlight.add(event.requestId);
    lastActivity = Date.now();
  });
  cdp.on('Network.responseReceived', (event) => {
    const { pathname } = new URL(event.response.url);
    if (!pathname.startsWith('/assets/')) return;
    const headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    const encoding = headers['content-encoding'] ?? 'identity';
    assets.total += 1;
    assets.encodings[encoding] = (assets.encodings[encoding] ?? 0) + 1;
    if ((headers['cache-control'] ?? '').includes('immutable')) assets.immutable += 1;
    if (encoding !== 'identity') assets.compressed += 1;
    if (pathname.endsWith('.js')) scripts.add(pathname.slice(1));
  });
  const finished = (requestId: string) => {
    inFlight.delete(requestId);
    lastActivity = Date.now();
  };
  cdp.on('Network.loadingFinished', (event) => {
    transferred += event.encodedDataLength;
    finished(event.requestId);
  });
  cdp.on('Network.loadingFailed', (event) => finished(event.requestId));

  await page.goto(url, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(() => (window as unknown as { __fmp?: number }).__fmp !== undefined, null, {
      timeout: LOAD_DEADLINE_MS,
      polling: 100,
    });
  } catch (error) {
    const picture = path.join(tmpdir(), 'cumulus-first-load-timeout.png');
    await page.screenshot({ path: picture });
    throw new Error(`The Dashboard did not paint its clusters (see ${picture}) at ${page.url()}`, {
      cause: error,
    });
  }
  const fmpMs = await page.evaluate(() => (window as unknown as { __fmp: number }).__fmp);
  await eventually(() => {
    if (inFlight.size > 0 || Date.now() - lastActivity < IDLE_MS) throw new Error('network still busy');
  }, LOAD_DEADLINE_MS);
  if (trace) await context.browser()?.stopTracing();
  await page.close();
  const js = sizeOf(outDir, scripts);
  return { fmpMs, requests, transferred, byType, log, jsGzip: js.gzip, jsFiles: js.files, assets };
}

export type FirstLoadResult = { loads: LoadFigures[]; indexCacheControl: string };

/**
 * Starts the real server on the console built in `outDir` (fresh embedded database), seeds a user
 * whose workspace has a few (stopped) clusters through the API, then loads the Dashboard `runs`
 * times, cold, after one warm-up load that is not counted.
 */
export async function benchFirstLoad(outDir: string, runs: number, trace?: string): Promise<FirstLoadResult> {
  // What npm start does first: the server built where its sources changed, then migrations.
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs', 'server'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  const templateDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bench-template-'));
  const pgdataTemplate = path.join(templateDir, 'pgdata');
  await writeMigratedPglite(pgdataTemplate);
  const [server, browser] = await Promise.all([
    startE2eServer({ webDist: outDir, pgdataTemplate }).finally(() =>
      rmSync(templateDir, { recursive: true, force: true }),
    ),
    launchBrowser(),
  ]);
  try {
    const user = await createVerifiedUser(server.base, server.smtp, 'bench');
    const { key, call } = await apiAs(server.base, user);
    const workspace = user.username;
    // Signed in before: the welcome dialog is answered.
    await call('PUT', '/api/v2/interactions/flag/user-source-dialog', { completed: true });
    for (const name of CLUSTER_NAMES) {
      const { id } = await call('POST', `/api/v2/clusters/account/${workspace}/`, { name, workers: 1 });
      await call('DELETE', `/api/v2/clusters/account/${workspace}/id/${id}?reason=bench`);
    }
    await eventually(async () => {
      const clusters: { current_state: { state: string } }[] = await call(
        'GET',
        `/api/v2/clusters/account/${workspace}/`,
      );
      if (clusters.some((cluster) => cluster.current_state.state !== 'stopped'))
        throw new Error('clusters still stopping');
    }, 120_000);

    const index = await fetch(`${server.base}/clusters`);
    const indexCacheControl = index.headers.get('cache-control') ?? '(none)';
    await index.arrayBuffer();

    const url = `${server.base}/clusters`;
    const loads: LoadFigures[] = [];
    for (let run = 0; run <= runs; run += 1) {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        colorScheme: 'dark',
        storageState: {
          cookies: [],
          origins: [{ origin: server.base, localStorage: [{ name: 'cumulus.token', value: key }] }],
        },
      });
      try {
        const figures = await loadOnce(context, url, outDir, CLUSTER_NAMES, run === runs ? trace : undefined);
        if (run > 0) loads.push(figures);
      } finally {
        await context.close();
      }
    }
    return { loads, indexCacheControl };
  } finally {
    await browser.close();
    await server.close();
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
