import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import { seriousViolations } from './harness/axe';
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
      const memory = page.getByRole('region', { name: 'Memory per instance' });
      await memory.getByText('now').first().waitFor();
      await session.screenshot('cluster-metrics', { fullPage: true });

      // The chart (uPlot, drawn on a canvas) has a time and a value axis; at the cursor its legend
      // gives each series' value there instead of its newest.
      const canvas = memory.locator('canvas');
      const box = (await canvas.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
      await memory.getByText(/^At [A-Z][a-z]{2} \d+, \d\d:\d\d:\d\d$/).waitFor();
      expect(await memory.getByRole('listitem').filter({ hasText: 'now' }).count()).toBe(0);
      expect(
        await memory
          .getByRole('listitem')
          .filter({ hasText: /scheduler\s*\d+(\.\d)? [KMG]iB/ })
          .count(),
      ).toBe(1);
      await session.screenshot('cluster-metrics-cursor');
      await page.mouse.move(0, 0);
      await memory.getByText('now').first().waitFor();

      // The same numbers as a table, for screen readers and exact figures; axe finds nothing serious.
      await memory.getByRole('button', { name: 'Show as table' }).click();
      const table = memory.getByRole('table', { name: 'Memory per instance' });
      await table.getByRole('columnheader', { name: 'scheduler' }).waitFor();
      expect(await table.getByRole('row').count()).toBeGreaterThan(1);
      expect(
        await table
          .getByRole('cell')
          .filter({ hasText: /\d [KMG]iB$/ })
          .count(),
      ).toBeGreaterThan(0);
      expect(await seriousViolations(page, 'metrics with a table')).toEqual([]);
      await session.screenshot('cluster-metrics-table');
      await memory.getByRole('button', { name: 'Show as chart' }).click();
      await memory.locator('canvas').first().waitFor();

      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('region', { name: 'CPU per instance' }).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page, 'metrics @390')).toEqual([]);
      await session.screenshot('cluster-metrics-phone', { fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });
      expectNoConsoleErrors(session.errors);
    } finally {
      await python.stop();
      await session.close();
    }
  }, 900_000);
});
