import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import {
  eventually,
  expectNoConsoleErrors,
  signIn,
  waitForSchedulerAndWorkerLines,
} from './harness/journeys';
import { expectFits } from './harness/layout';
import { runPython } from './harness/python';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

/**
 * Starts a real cluster, runs a slow three-group computation on it (Dask captures the code of
 * `run_pipeline`), then one whose task raises, then waits for a line on stdin and closes it.
 */
const SCRIPT = `
import sys, time
import dask
import cumulus
from distributed import Client

def load(i):
    time.sleep(0.25)
    return i

def square(x):
    return x * x

def run_pipeline(client):
    parts = [dask.delayed(square)(dask.delayed(load, pure=False)(i)) for i in range(240)]
    return client.compute(dask.delayed(sum)(parts)).result()

def explode(x):
    raise ValueError(f"bad record {x}")

def run_failing(client):
    return client.submit(explode, 7).exception()

cluster = cumulus.Cluster(n_workers=1, wait_for_workers=True, timeout=600, quiet=True)
print("CLUSTER", cluster.cluster_id, flush=True)
with Client(cluster) as client:
    print("RUNNING", flush=True)
    print("RESULT", run_pipeline(client), flush=True)
    run_failing(client)
    print("FAILED", flush=True)
    sys.stdin.readline()
cluster.close()
print("CLOSED", flush=True)
`;

describe('Analytics', () => {
  it('shows what a real cluster computes now, then its computations with code, task groups and exceptions; metrics per instance and cluster-wide', async () => {
    const session = await suite.open();
    const { page } = session;
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'analytics');
    const { key } = await apiAs(base, user);
    const python = runPython(SCRIPT, { base, key });
    const { printed } = python;
    try {
      const id = await python.printedNumber('CLUSTER');
      await printed('RUNNING');
      await page.goto('/clusters');
      await signIn(page, user, { firstTime: true });
      await page.waitForURL('**/clusters');
      await page.goto(`/clusters/${id}?account=${user.username}`);
      // No Dask dashboard here: the overview leads to what runs now.
      await page.getByRole('link', { name: 'See what runs now' }).click();
      await page.waitForURL(`**/clusters/${id}/analytics?**`);

      // Running now: the pipeline's task groups with done/total, moving while it runs.
      const running = page.getByRole('region', { name: 'Running now' });
      const loadBar = running.getByRole('progressbar', { name: /^load: \d+ of 240 tasks done$/ });
      await loadBar.waitFor({ timeout: 120_000 });
      expect(await loadBar.getAttribute('aria-valuemax')).toBe('240');
      await running.getByRole('progressbar', { name: /^square: / }).waitFor();
      await running.getByText('def run_pipeline(client):').waitFor();
      const before = Number(await loadBar.getAttribute('aria-valuenow'));
      await eventually(async () => {
        const now = Number(await loadBar.getAttribute('aria-valuenow'));
        if (!(now > before)) throw new Error(`load still at ${now}`);
      }, 30_000);
      await session.screenshot('cluster-analytics-running');
      await page.setViewportSize({ width: 390, height: 844 });
      await expectFits(page, 'Analytics, running now');
      await session.screenshot('cluster-analytics-running-phone', { fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });

      // Finished: listed with its code and its task groups, all done.
      await printed('FAILED');
      await running.getByText('Nothing is computing right now').waitFor({ timeout: 60_000 });
      const computations = page.getByRole('list', { name: 'Computations' });
      const pipeline = computations.getByRole('button', { name: /def run_pipeline\(client\)/ });
      await pipeline.waitFor();
      // Its status follows the scheduler: every task group done, so finished (never "Running").
      await pipeline.getByText('Finished', { exact: true }).waitFor();
      await pipeline.click();
      await page.waitForURL('**computation=**');
      // The address changes before React renders the opened row: wait for the row, not the address.
      await computations
        .getByRole('button', { name: /def run_pipeline\(client\)/, expanded: true })
        .waitFor();
      const code = page.getByRole('region', { name: 'Code of this computation' });
      await code.getByText('dask.delayed(load, pure=False)', { exact: false }).waitFor();
      expect(await code.getAttribute('tabindex')).toBe('0');
      const groups = page.getByRole('list', { name: 'Task groups of this computation' });
      const done = groups.getByRole('progressbar', { name: /^load: / });
      expect(await done.getAttribute('aria-valuenow')).toBe('240');
      await groups.getByRole('progressbar', { name: 'sum: 1 of 1 tasks done' }).waitFor();
      await session.screenshot('cluster-analytics', { fullPage: true });

      // The failing one: its exception with the traceback.
      await pipeline.click();
      const failing = computations.getByRole('button', { name: /def run_failing\(client\)/ });
      await failing.getByText('1 erred', { exact: true }).waitFor();
      await failing.click();
      await page.getByText("ValueError('bad record 7')").waitFor({ timeout: 30_000 });
      await page.getByText('Show traceback').click();
      await page
        .getByRole('region', { name: /^Traceback of/ })
        .getByText('raise ValueError')
        .waitFor();
      await session.screenshot('cluster-analytics-exception', { fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await expectFits(page, 'Analytics, exception');
      await session.screenshot('cluster-analytics-exception-phone', { fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });

      // Metrics: per instance (scheduler and worker), then cluster-wide (both combined).
      await page.getByRole('link', { name: 'Metrics', exact: true }).click();
      await page.waitForURL(`**/clusters/${id}/metrics?**`);
      const cpu = page.getByRole('region', { name: 'CPU per instance' });
      await waitForSchedulerAndWorkerLines(cpu, 120_000);
      await session.screenshot('cluster-metrics-per-instance', { fullPage: true });
      await page.getByRole('button', { name: 'Cluster-wide' }).click();
      await page.waitForURL('**by=cluster**');
      const wide = page.getByRole('region', { name: 'CPU, cluster-wide average' });
      await wide.getByText('2 instances').waitFor();
      expect(await wide.getByRole('listitem').count()).toBe(1);
      await page
        .getByRole('region', { name: 'Network, cluster-wide' })
        .getByText('2 instances receive')
        .waitFor();
      await session.screenshot('cluster-metrics-cluster-wide', { fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await expectFits(page, 'Metrics, cluster-wide');
      await session.screenshot('cluster-metrics-cluster-wide-phone');
      await page.getByRole('button', { name: 'Per instance' }).click();
      await page.getByRole('region', { name: 'CPU per instance' }).getByText('scheduler').first().waitFor();
      await expectFits(page, 'Metrics, per instance');
      await session.screenshot('cluster-metrics-per-instance-phone');
      await page.setViewportSize({ width: 1440, height: 900 });
      expectNoConsoleErrors(session.errors);
    } catch (error) {
      // What the page showed when the journey broke, beside the other pictures.
      await session.screenshot('cluster-analytics-failure', { fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await python.stop();
      await session.close();
    }
  }, 900_000);
});
