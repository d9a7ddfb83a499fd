import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism, totalmem } from 'node:os';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser, json } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn, storedToken } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

/** Real Dask takes a while on a loaded two-core machine. */
const CLUSTER_DEADLINE_MS = 150_000;

/**
 * Live processes of local instances (agents, dask-scheduler, dask-worker) of the server at
 * `base`: the local backend puts CUMULUS_BACKEND_ID and CUMULUS_SERVER in their environment.
 */
async function instanceProcesses(base: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const environ = await readFile(`/proc/${name}/environ`, 'latin1').catch(() => '');
    const stat = await readFile(`/proc/${name}/stat`, 'latin1').catch(() => '');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    const vars = environ.split('\0');
    if (
      state !== 'Z' &&
      vars.includes(`CUMULUS_SERVER=${base}`) &&
      vars.some((v) => v.startsWith('CUMULUS_BACKEND_ID='))
    )
      pids.push(Number(name));
  }
  return pids;
}

const stateChip = (page: Page) => page.locator('header [data-slot=state-chip]').first();
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Cluster sections' }).getByRole('link', { name, exact: true });

describe('Clusters', () => {
  it('the Logs tab says the server is unreachable instead of skeletons under Live', async () => {
    const session = await suite.open();
    const { page } = session;
    const { base, smtp } = suite.server;
    const user = await createVerifiedUser(base, smtp, 'down');
    const api = await apiAs(base, user);
    const cluster = await api.call('POST', `/api/v2/clusters/account/${user.username}/`, {
      name: 'unreachable',
      workers: 0,
    });
    try {
      await page.goto('/clusters');
      await signIn(page, user, { firstTime: true });
      // The server stops answering the log calls (refused connections, as when it is down).
      await page.route('**/better-logs**', (route) => route.abort('connectionrefused'));
      await page.goto(`/clusters/${cluster.id}/logs?account=${user.username}`);
      await page.getByText('Unreachable', { exact: true }).waitFor({ timeout: 10_000 });
      await page.getByText("Can't connect to the server").waitFor({ timeout: 10_000 });
      expect(await page.getByText('Live', { exact: true }).count()).toBe(0);
      await session.screenshot('cluster-logs-unreachable');
      await page.setViewportSize({ width: 390, height: 844 });
      await session.screenshot('cluster-logs-unreachable-phone');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await api.call('DELETE', `/api/v2/clusters/account/${user.username}/id/${cluster.id}`);
    }
  });

  it('a Stop button that cannot stop says why: on the page beside it, and in the list on hover and focus', async () => {
    const session = await suite.open();
    const { page } = session;
    const { base, smtp } = suite.server;
    const user = await createVerifiedUser(base, smtp, 'halt');
    const api = await apiAs(base, user);
    const clusters = `/api/v2/clusters/account/${user.username}/`;
    const cluster = await api.call('POST', clusters, { name: 'done-etl', workers: 0 });
    await api.call('DELETE', `${clusters}id/${cluster.id}?reason=test`);
    const reason = 'done-etl is stopped: there is nothing left to stop.';

    await page.goto(`/clusters/${cluster.id}?account=${user.username}`);
    await signIn(page, user, { firstTime: true });
    await eventually(
      async () => expect(await stateChip(page).textContent()).toBe('Stopped'),
      CLUSTER_DEADLINE_MS,
    );
    // The page says it in words next to the button, and the button (still focusable) is described by them.
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    expect(await stop.getAttribute('aria-disabled')).toBe('true');
    await page.getByText(reason, { exact: true }).waitFor();
    expect(await page.getByText(reason, { exact: true }).isVisible()).toBe(true);
    expect(await stop.evaluate((el) => el.getAttribute('aria-describedby') !== null)).toBe(true);
    expect(
      await stop.evaluate(
        (el) =>
          document.getElementById((el.getAttribute('aria-describedby') ?? '').split(' ')[0] ?? '')
            ?.textContent,
      ),
    ).toBe(reason);
    await stop.focus();
    expect(await stop.evaluate((el) => el === document.activeElement)).toBe(true);
    // Pressing it does nothing: no confirmation opens.
    await stop.press('Enter');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await session.screenshot('cluster-stop-why');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.getByText(reason, { exact: true }).isVisible()).toBe(true);
    await session.screenshot('cluster-stop-why-phone');
    await page.setViewportSize({ width: 1440, height: 900 });

    // The Dashboard's row: the reason on hover (the pointer reaches the button), and on keyboard focus.
    await page.goto('/clusters');
    const row = page.getByRole('row').filter({ hasText: 'done-etl' });
    const rowStop = row.getByRole('button', { name: 'Stop done-etl' });
    await rowStop.waitFor();
    expect(await rowStop.getAttribute('aria-disabled')).toBe('true');
    const tooltip = page.locator('[role=tooltip]');
    await rowStop.hover();
    await tooltip.filter({ hasText: reason }).waitFor({ timeout: 5_000 });
    await session.screenshot('dashboard-stop-why');
    // And by keyboard alone, on a fresh page.
    await page.reload();
    await rowStop.waitFor();
    expect(await tooltip.count()).toBe(0);
    await rowStop.focus();
    await tooltip.filter({ hasText: reason }).waitFor({ timeout: 5_000 });
    expect(
      await rowStop.evaluate(
        (el) =>
          document.getElementById((el.getAttribute('aria-describedby') ?? '').split(' ')[0] ?? '')
            ?.textContent,
      ),
    ).toContain(reason);
    expectNoConsoleErrors(session.errors);
  });

  it('Create cluster offers the worker sizes this machine can run, and only those', async () => {
    const session = await suite.open();
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'sizes');
    await page.goto('/clusters');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('button', { name: 'Create cluster' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create cluster' });
    const cores = availableParallelism();
    await dialog
      .getByText(`Threads each worker runs, up to this machine's ${cores};`, { exact: false })
      .waitFor();
    const offered = async (label: string) => {
      await dialog.getByLabel(label).click();
      const listbox = page.getByRole('listbox');
      const names = await listbox.getByRole('option').allTextContents();
      await session.screenshot(`create-cluster-${label.toLowerCase().replace(' ', '-')}`);
      await page.keyboard.press('Escape');
      await listbox.waitFor({ state: 'detached' });
      return names;
    };
    const coreNames = await offered('Worker cores');
    // The powers of two under the machine's cores, then its cores: 1 and 2 on a two-core machine.
    expect(coreNames.at(-1)).toBe(`${cores} cores`);
    expect(coreNames.map((name) => Number.parseInt(name, 10)).every((n) => n <= cores)).toBe(true);
    const memoryGib = totalmem() / 2 ** 30;
    const memoryNames = await offered('Worker memory');
    expect(memoryNames[0]).toBe('Automatic');
    expect(memoryNames.slice(1).every((name) => Number.parseInt(name, 10) <= memoryGib)).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await session.screenshot('create-cluster-sizes-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expectNoConsoleErrors(session.errors);
  });

  it('creates a cluster from the console, sees it ready, reads its logs, stops it, and leaves no process behind', async () => {
    const session = await suite.open();
    const { page } = session;
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'dash');

    // The Dashboard of a new workspace: how to start from Python, or from here.
    await page.goto('/clusters');
    await signIn(page, user, { firstTime: true });
    await page.waitForURL('**/clusters');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByText(`No clusters in ${user.username} yet`).waitFor();
    await page
      .getByText(`client = Client(cumulus.Cluster(n_workers=4, workspace="${user.username}"))`)
      .waitFor();
    // Install this server's client, then sign in to this server (its port is not the default 8000).
    await page.getByText(`cumulus login --server ${base}`, { exact: true }).waitFor();
    await page.getByText(`pip install --no-build-isolation ${base}/api/v2/client/cumulus.tar.gz`).waitFor();
    expect(await page.title()).toContain('Dashboard');
    await session.screenshot('dashboard-empty');

    // Create cluster: a name outside the rule is refused on its field.
    await page.getByRole('button', { name: 'Create cluster' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create cluster' });
    await dialog.getByLabel('Name').fill('-bad');
    await dialog.getByRole('button', { name: 'Create cluster' }).click();
    await dialog
      .getByText('Use letters, digits, ".", "_" and "-", starting with a letter or digit.')
      .waitFor();
    await dialog.getByLabel('Name').fill('journey');
    await dialog.getByLabel('Workers').fill('1');
    await dialog.getByLabel('Tag 1 key').fill('team');
    await dialog.getByLabel('Tag 1 value').fill('e2e');
    await session.screenshot('create-cluster-dialog');
    await dialog.getByRole('button', { name: 'Create cluster' }).click();

    // The new cluster's page: starting, then ready.
    await page.waitForURL(/\/clusters\/\d+\?account=/);
    const clusterId = Number(new URL(page.url()).pathname.split('/')[2]);
    await page.getByRole('heading', { name: 'journey', level: 1 }).waitFor();
    await page.getByText('tls://').first().waitFor({ timeout: CLUSTER_DEADLINE_MS });
    await eventually(
      async () => expect(await stateChip(page).textContent()).toBe('Ready'),
      CLUSTER_DEADLINE_MS,
    );
    await page.getByText('No dashboard').waitFor();
    await page
      .getByText(`cumulus.Cluster(name="${user.username}/journey", shutdown_on_close=False)`)
      .waitFor();
    await page.getByRole('list', { name: 'State timeline' }).getByText('Ready').waitFor();
    expect(
      await page.getByRole('list', { name: 'State timeline' }).locator('li').count(),
    ).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Copy connect snippet' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('journey');
    // What will stop it by itself: made here, it has the idle timer and the no-client one.
    const stops = page.getByRole('list', { name: 'Stops' });
    await stops.getByText('No work for 20 minutes (idle timeout)').waitFor();
    await stops.getByText('No client for 2 minutes (no-client timeout)').waitFor();
    await session.screenshot('cluster-overview', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await session.screenshot('cluster-overview-390', { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Instances: the scheduler and the worker, both up, with a heartbeat.
    await tab(page, 'Instances').click();
    await page.waitForURL(`**/clusters/${clusterId}/instances?account=*`);
    const rows = page.getByRole('row').filter({ hasText: 'journey-' });
    await eventually(async () => expect(await rows.count()).toBe(2));
    expect(await rows.filter({ hasText: 'Scheduler' }).getByText('Ready').count()).toBe(1);
    expect(await rows.filter({ hasText: 'Worker' }).getByText('Never').count()).toBe(0);
    await session.screenshot('cluster-instances');

    // Logs: the scheduler's address arrives; the filter pattern narrows, in the URL.
    await tab(page, 'Logs').click();
    const log = page.getByRole('log', { name: 'Log lines' });
    await log.getByText('Scheduler at:').first().waitFor({ timeout: 60_000 });
    await page.getByText('Live', { exact: true }).waitFor();
    await session.screenshot('cluster-logs');
    await page.getByLabel('Filter pattern').fill('Scheduler at');
    await page.waitForURL(/[?&]q=Scheduler(\+|%20)at/);
    await eventually(async () => {
      const lines = await log.locator('[data-slot=log-line]').allTextContents();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/scheduler at/i);
      expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    });
    await page.getByLabel('Filter pattern').fill('no such line anywhere');
    await log.getByText('No logs').waitFor();
    await page.getByLabel('Filter pattern').fill('');
    await page.getByLabel('Dask').click();
    await page.waitForURL(/[?&]dask=0/);
    await eventually(async () => {
      const lines = await log.locator('[data-slot=log-line]').allTextContents();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toContain('[cumulus-agent]');
    });

    // Events: the state history of every part.
    await tab(page, 'Events').click();
    await page.getByRole('row').filter({ hasText: 'Scheduler instance' }).first().waitFor();
    await session.screenshot('cluster-events');

    // A second cluster, started and stopped through the API as the Python client would.
    const token = await storedToken(page);
    const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
    const clusters = `${base}/api/v2/clusters/account/${user.username}/`;
    const other = await json(
      await fetch(clusters, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'nightly-etl', workers: 0, tags: { team: 'data' } }),
      }),
    );
    await json(await fetch(`${clusters}id/${other.id}?reason=test`, { method: 'DELETE', headers }));

    // The Dashboard lists both; its URL filters work on the real list.
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('link', { name: 'journey' }).waitFor();
    await page.getByRole('link', { name: 'nightly-etl' }).waitFor();
    await eventually(
      async () =>
        expect(await page.getByRole('row').filter({ hasText: 'nightly-etl' }).textContent()).toContain(
          'Stopped',
        ),
      CLUSTER_DEADLINE_MS,
    );
    await session.screenshot('dashboard-clusters');
    await page.getByLabel('Filter clusters').fill('state:ready');
    await page.keyboard.press('Enter');
    await page.waitForURL(/filters=/);
    await page.getByRole('link', { name: 'nightly-etl' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'journey' }).waitFor();
    await page.getByRole('button', { name: 'Remove filter state: ready' }).click();
    await page.getByLabel('Filter clusters').fill('state:error');
    await page.keyboard.press('Enter');
    await page.getByText('No clusters match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByRole('link', { name: 'nightly-etl' }).waitFor();

    // An old account-scoped link lands on the Instances tab.
    await page.goto(`/${user.username}/clusters/${clusterId}/details`);
    await page.waitForURL(`**/clusters/${clusterId}/instances?account=${user.username}`);

    // Stop, after a confirmation; then nothing of it runs any more.
    await tab(page, 'Overview').click();
    expect((await instanceProcesses(base)).length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Stop journey?' });
    await session.screenshot('cluster-stop-confirmation');
    await confirm.getByRole('button', { name: 'Stop cluster' }).click();
    await eventually(
      async () => expect(await stateChip(page).textContent()).toBe('Stopped'),
      CLUSTER_DEADLINE_MS,
    );
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    await eventually(async () => expect(await instanceProcesses(base)).toEqual([]), 60_000);
    // The timeline ends where the header does, each state once (the page polls no more).
    const timeline = page.getByRole('list', { name: 'State timeline' });
    await eventually(async () =>
      expect(await timeline.locator('li [data-slot=state-chip]').allTextContents()).toEqual([
        'Pending',
        'Starting',
        'Ready',
        'Stopping',
        'Stopped',
      ]),
    );
    await session.screenshot('cluster-stopped');

    expectNoConsoleErrors(session.errors);
  });
});
