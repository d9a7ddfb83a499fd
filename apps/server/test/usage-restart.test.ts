import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { instances, usageHourly, usageMinutes } from '../src/db/schema/index.js';
import { waitFor } from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createClusterRow, createUser } from './helpers/factories.js';
import { startTestServer } from './helpers/server.js';

/**
 * Metering across a restart: a server stopped in the middle of a (1 s) metering minute and another
 * started on the same database meter an instance's run with every minute once: none lost, none
 * twice, and the hourly rollup agrees.
 */
const UNIT = 1000;

describe('metering across a restart', () => {
  it('neither loses nor doubles a minute when the server stops mid-minute', async () => {
    const database = await openTestDatabase();
    const env = { CUMULUS_METER_MINUTE_SECONDS: String(UNIT / 1000) };
    const first = await startTestServer(env, { database });
    let second: Awaited<ReturnType<typeof startTestServer>> | undefined;
    let stopped = false;
    try {
      const user = await createUser(first);
      const me = (await first.api.as(user.key).get('/api/v2/user/me')).body;
      const cluster = await createClusterRow(first, { id: me.default_account.id }, user);
      const launched = Math.floor(Date.now() / UNIT) * UNIT - 2 * UNIT;
      const runFor = 16;
      const [instance] = await database.db
        .update(instances)
        .set({ launchedAt: new Date(launched), releasedAt: new Date(launched + runFor * UNIT) })
        .where(eq(instances.clusterId, cluster.id))
        .returning();
      const metered = () => database.db.$count(usageMinutes, eq(usageMinutes.instanceId, instance!.id));

      await waitFor(
        'the first server metering some minutes',
        async () => ((await metered()) >= 3 ? true : undefined),
        30_000,
        100,
      );
      // Stop in the middle of a minute, with minutes of the run still to meter.
      await waitFor(
        'the middle of a minute',
        async () =>
          Date.now() % UNIT > UNIT / 2 - 100 && Date.now() % UNIT < UNIT / 2 + 100 ? true : undefined,
        5_000,
        10,
      );
      await first.close();
      stopped = true;
      const atStop = await metered();
      expect(atStop).toBeLessThan(runFor);

      second = await startTestServer(env, { database });
      await waitFor(
        'the second server metering the rest',
        async () => ((await metered()) >= runFor ? true : undefined),
        60_000,
        200,
      );
      // A few more rounds, which must write nothing more.
      await new Promise((resolve) => setTimeout(resolve, 3 * UNIT));
      const rows = await database.db
        .select({ minute: usageMinutes.minute })
        .from(usageMinutes)
        .where(eq(usageMinutes.instanceId, instance!.id))
        .orderBy(usageMinutes.minute);
      expect(rows.map((r) => r.minute.getTime())).toEqual(
        Array.from({ length: runFor }, (_, i) => launched + i * UNIT),
      );
      const [rolled] = await database.db
        .select({ minutes: sql<number>`sum(${usageHourly.instanceMinutes})::int` })
        .from(usageHourly)
        .where(eq(usageHourly.clusterId, cluster.id));
      expect(rolled?.minutes).toBe(runFor);
    } finally {
      await second?.close();
      if (!stopped) await first.close();
      await database.close();
    }
  }, 120_000);
});
