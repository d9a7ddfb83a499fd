import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import { expectNoConsoleErrors, signIn, waitForSchedulerAndWorkerLines } from './harness/journeys';
import { runPython } from './harness/python';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

/** Starts a real cluster from Python, keeps computing on it until told (a line on stdin), then closes it. */
const SCRIPT = `
import sys, threading, time
import cumulus
from distributed import Client
cluster = cumulus.Cluster(n_workers=1, wait_for_workers=True, timeout=600, quiet=True)
print("CLUSTER", cluster.cluster_id, flush=True)
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
def slowinc(x):
    time.sleep(0.05)
    return x + 1
with Client(cluster) as client:
    while not stop.is_set():
        client.submit(sum, client.map(slowinc, range(100), pure=False)).result()
cluster.close()
print("CLOSED", flush=True)
`;

describe('Metrics', () => {
  it('shows a running cluster’s own and host-wide metrics over its lifetime while it computes, at 1440 and 390 px', async () => {
    const session = await suite.open();
    const { page } = session;
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'metrics');
    const { key } = await apiAs(base, user);
    const python = runPython(SCRIPT, { base, key });
    try {
      const id = await python.printedNumber('CLUSTER');
      await page.goto('/clusters');
      await signIn(page, user, { firstTime: true });
      await page.waitForURL('**/clusters');
      await page.goto(`/clusters/${id}?account=${user.username}`);
      // No Dask dashboard here: the overview offers the metrics instead.
      await page.getByRole('link', { name: 'See its metrics' }).click();
      await page.waitForURL(`**/clusters/${id}/metrics?**`);
      // A new cluster's metrics cover its lifetime, not an hour it has mostly not lived.
      const ranges = page.getByRole('group', { name: 'Time range' });
      await expect.poll(() => ranges.getByRole('button', { pressed: true }).textContent()).toBe('Lifetime');

      const cpu = page.getByRole('region', { name: 'CPU per instance' });
      await waitForSchedulerAndWorkerLines(cpu, 180_000);
      // Each instance measures its own processes; what only the host has is said to be host-wide.
      await cpu.getByText('Each instance’s own processes').waitFor();
      await page.getByRole('region', { name: 'Memory per instance' }).getByText('own processes').waitFor();
      await page.getByRole('region', { name: 'Network per instance' }).getByText('Host-wide').waitFor();
      await page
        .getByRole('region', { name: 'Compute seconds by task prefix' })
        .getByText('slowinc')
        .waitFor({ timeout: 180_000 });
      await page.getByRole('region', { name: 'Dask tasks' }).getByText('memory').waitFor();
      await page.getByRole('region', { name: 'Memory per instance' }).getByText('now').first().waitFor();
      await session.screenshot('cluster-metrics', { fullPage: true });

      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('region', { name: 'CPU per instance' }).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await session.screenshot('cluster-metrics-phone');
      await page.setViewportSize({ width: 1440, height: 900 });
      expectNoConsoleErrors(session.errors);
    } finally {
      await python.stop();
      await session.close();
    }
  }, 900_000);
});
