import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

// A metered minute lasts a second here, so a cluster running ten seconds leaves real usage.
const suite = consoleSuite({ env: { CUMULUS_METER_MINUTE_SECONDS: '1' } });

/** Real Dask clusters take a while on a loaded two-core machine. */
const CLUSTER_DEADLINE_MS = 150_000;

const numberIn = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

describe('Usage', () => {
  it("charts a stopped cluster's usage by cluster, in credits and instance minutes", async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'usage');
    const api = await apiAs(base, user);
    const { slug } = (await api.call('GET', '/api/v2/user/me')).default_account;
    const clusters = `/api/v2/clusters/account/${slug}/`;
    const cluster = await api.call('POST', clusters, { name: 'metered', workers: 1 });
    const state = async () => (await api.call('GET', `${clusters}id/${cluster.id}`)).current_state.state;
    await eventually(async () => expect(await state()).toBe('ready'), CLUSTER_DEADLINE_MS);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    await api.call('DELETE', `${clusters}id/${cluster.id}?reason=test`);
    await eventually(async () => expect(await state()).toBe('stopped'), CLUSTER_DEADLINE_MS);
    // Metering settles a few seconds after a minute ends: the page reads usage once, so wait for the
    // stopped cluster's minutes to be metered (scheduler and worker, ten seconds each) before opening it.
    const today = new Date().toISOString().slice(0, 10);
    const usage = `/api/v2/usage/?unit=instance-minutes&start=${today}&end=${today}&groupby=cluster`;
    await eventually(
      async () => expect((await api.call('GET', usage)).total).toBeGreaterThanOrEqual(20),
      60_000,
    );

    const session = await suite.open();
    const { page } = session;
    await page.goto('/usage?groupby=cluster');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const chart = page.getByRole('img', { name: /^Credits by day from / });
    await chart.waitFor();
    const row = page.getByRole('row').filter({ hasText: `metered (${cluster.id})` });
    await row.waitFor();
    const total = page.getByRole('row').filter({ hasText: /^Total/ });
    expect(numberIn(await total.getByRole('cell').nth(1).textContent())).toBeGreaterThan(0);
    expect(await row.textContent()).toContain('100%');

    // Hovering the chart reads today's bucket.
    const plot = page.getByRole('group', { name: /Usage chart/ });
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
    await page.getByRole('tooltip').getByText(`metered (${cluster.id})`).waitFor();
    await session.screenshot('usage');

    await page.getByRole('combobox', { name: 'Unit' }).click();
    await page.getByRole('option', { name: 'Instance minutes' }).click();
    await page.waitForURL(/[?&]unit=instance-minutes/);
    await page.getByRole('img', { name: /^Instance minutes by day/ }).waitFor();
    // The scheduler and the worker each ran for at least the ten seconds (ten metered minutes).
    await eventually(async () =>
      expect(numberIn(await total.getByRole('cell').nth(1).textContent())).toBeGreaterThanOrEqual(20),
    );

    // A phone: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.mouse.move(0, 0);
    await eventually(async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0),
    );
    await session.screenshot('usage-390');
    expectNoConsoleErrors(session.errors);
  }, 360_000);
});
