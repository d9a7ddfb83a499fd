import { eq, inArray, sql } from 'drizzle-orm';
import { pgTable, serial, text } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { loopColumns } from '../src/db/schema/columns.js';
import {
  backoffDelay,
  type LoopDomain,
  loopRows,
  type ReconcileContext,
  Runner,
} from '../src/loops/runner.js';
import { waitFor } from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';

/** A domain of its own for these tests: what plugging one in takes. */
const things = pgTable('loop_test_things', {
  id: serial('id').primaryKey(),
  ...loopColumns(),
  label: text('label'),
});

const nothing = () => {};
const quiet = {
  level: 'silent',
  fatal: nothing,
  error: nothing,
  warn: nothing,
  info: nothing,
  debug: nothing,
  trace: nothing,
  silent: nothing,
  child: () => quiet,
} as unknown as FastifyBaseLogger;

type Reconcile = (id: number, context: ReconcileContext) => Promise<Date | null>;

let database: Database & { url?: string };
const runners: Runner[] = [];

function runner(reconcile: Reconcile, options: Partial<LoopDomain> = {}, db = database.db): Runner {
  const r = new Runner(
    db,
    {
      name: 'things',
      rows: loopRows(things),
      reconcile,
      backoff: { initialMs: 1000, capMs: 4000 },
      // Long: in these tests rows are claimed because of a wake, unless a test says otherwise.
      intervalMs: 60_000,
      ...options,
    },
    quiet,
  );
  runners.push(r);
  return r;
}

const row = async (id: number) => (await database.db.select().from(things).where(eq(things.id, id)))[0]!;
const insert = async (values: Partial<typeof things.$inferInsert> = {}) =>
  (await database.db.insert(things).values(values).returning())[0]!;
const makeDue = (id: number) =>
  database.db.update(things).set({ reconcileAt: sql`clock_timestamp()` }).where(eq(things.id, id));
/** Seconds from now until the row is due. */
const dueIn = async (id: number) => {
  const [r] = await database.db
    .select({ s: sql<number>`extract(epoch from ${things.reconcileAt} - clock_timestamp())::float8` })
    .from(things)
    .where(eq(things.id, id));
  return Number(r!.s);
};

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table loop_test_things (
    id serial primary key, reconcile_at timestamptz default now(), lease_owner varchar(64),
    lease_until timestamptz, reconcile_attempts integer not null default 0, reconcile_error text,
    reconcile_failing_since timestamptz, label text)`);
});
beforeEach(async () => {
  while (runners.length) await runners.pop()!.stop({ abandonAfterMs: 0 });
  await database.db.delete(things);
});
afterAll(async () => {
  while (runners.length) await runners.pop()!.stop({ abandonAfterMs: 0 });
  await database?.close();
});

describe('backoffDelay', () => {
  it('doubles from the first delay with each failure in a row, up to the cap', () => {
    const policy = { initialMs: 500, capMs: 3000 };
    expect([1, 2, 3, 4, 5, 30].map((n) => backoffDelay(policy, n))).toEqual([
      500, 1000, 2000, 3000, 3000, 3000,
    ]);
  });
});

describe('the loop runner', () => {
  it('reconciles due rows when woken, releases them with the next due time, and leaves settled rows alone', async () => {
    const seen: number[] = [];
    const later = new Date(Date.now() + 3_600_000);
    const a = await insert({ label: 'again later' });
    const b = await insert({ label: 'settles' });
    const idle = await insert({ label: 'settled', reconcileAt: null });
    const r = runner(async (id) => {
      seen.push(id);
      return id === a.id ? later : null;
    });
    r.start();
    await waitFor('both due rows reconciled', async () => seen.length >= 2);
    await waitFor(
      'both released',
      async () => (await row(b.id)).leaseOwner === null && (await row(a.id)).leaseOwner === null,
    );
    expect((await row(a.id)).reconcileAt?.getTime()).toBe(later.getTime());
    expect((await row(b.id)).reconcileAt).toBeNull();
    expect(seen.sort()).toEqual([a.id, b.id].sort());

    // Made due again (as a writer of desired state does) and woken: reconciled at once.
    await makeDue(b.id);
    r.wake();
    await waitFor('the woken row reconciled', async () => seen.length === 3);
    expect(seen[2]).toBe(b.id);
    expect(seen).not.toContain(idle.id);
  });

  it('backs off a failing row exponentially up to the cap, records why and since when, and clears it on success', async () => {
    let failing = true;
    const calls: number[] = [];
    const r = runner(
      async (_id, context) => {
        calls.push(context.attempts);
        if (failing) throw new Error('internal detail');
        return null;
      },
      {
        backoff: {
          initialMs: 1000,
          capMs: 4000,
          describeError: () => 'No capacity for m6i.xlarge in us-east-1a',
        },
      },
    );
    const t = await insert();
    r.start();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(`failure ${attempt} recorded`, async () => {
        const x = await row(t.id);
        return x.reconcileAttempts === attempt && x.leaseOwner === null;
      });
      delays.push(await dueIn(t.id));
      await makeDue(t.id);
      if (attempt === 4) failing = false;
      r.wake();
    }
    // 1 s, 2 s, 4 s, then the cap (4 s); measured a little after each failure.
    expect(delays.map((d) => Math.round(d))).toEqual([1, 2, 4, 4]);
    const failed = await row(t.id);
    expect(failed.reconcileError).toBe('No capacity for m6i.xlarge in us-east-1a');
    expect(failed.reconcileFailingSince).toBeInstanceOf(Date);
    await waitFor('the success recorded', async () => (await row(t.id)).reconcileAttempts === 0);
    const healed = await row(t.id);
    expect(healed).toMatchObject({ reconcileError: null, reconcileFailingSince: null, reconcileAt: null });
    expect(calls).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps a wake that arrives while the row is reconciled, even when the reconcile fails', async () => {
    let calls = 0;
    const r = runner(async (id) => {
      calls++;
      if (calls === 1) {
        await makeDue(id); // a desired-state change committed meanwhile
        throw new Error('flaky');
      }
      return null;
    });
    const t = await insert();
    r.start();
    // Without the kept wake the row would wait out its backoff (1 s) and a 60 s interval.
    await waitFor(
      'the second pass',
      async () => calls === 2 && (await row(t.id)).reconcileAt === null,
      5_000,
    );
  });

  it("hands a dead replica's rows over when their lease expires", async () => {
    const at: number[] = [];
    const t = await insert({ leaseOwner: 'dead-replica', leaseUntil: new Date(Date.now() + 1500) });
    const r = runner(
      async () => {
        at.push(Date.now());
        return null;
      },
      { intervalMs: 100 },
    );
    const started = Date.now();
    r.start();
    await waitFor('the row taken over', async () => at.length === 1, 10_000);
    expect(at[0]! - started).toBeGreaterThanOrEqual(1300);
    expect(await row(t.id)).toMatchObject({ leaseOwner: null, reconcileAt: null });
  });

  it('renews the lease of long work, and abandons work whose lease another took', async () => {
    let aborted = false;
    const t = await insert();
    const r = runner(
      (_id, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve(null);
          });
        }),
      { leaseMs: 300 },
    );
    r.start();
    await waitFor('claimed', async () => (await row(t.id)).leaseOwner === r.owner);
    // Three lease periods later it still holds the row: the lease was renewed.
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect((await row(t.id)).leaseOwner).toBe(r.owner);
    expect(aborted).toBe(false);
    await database.db.update(things).set({ leaseOwner: 'thief' }).where(eq(things.id, t.id));
    await waitFor('the work told to stop', async () => aborted, 5_000);
    // Its release touched nothing: the row is the thief's.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await row(t.id)).leaseOwner).toBe('thief');
    expect((await row(t.id)).reconcileAt).not.toBeNull();
  });

  it('stops cleanly: waits for work in flight, or abandons it and gives its rows back', async () => {
    let finished = false;
    const a = await insert();
    const first = runner(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
      return null;
    });
    first.start();
    await waitFor('claimed', async () => (await row(a.id)).leaseOwner === first.owner);
    await first.stop();
    expect(finished).toBe(true);
    expect(await row(a.id)).toMatchObject({ leaseOwner: null, reconcileAt: null });

    let release: (() => void) | undefined;
    const b = await insert();
    const due = (await row(b.id)).reconcileAt;
    const stuck = runner(
      () =>
        new Promise((resolve) => {
          release = () => resolve(new Date(Date.now() + 3_600_000));
        }),
    );
    stuck.start();
    await waitFor('claimed', async () => (await row(b.id)).leaseOwner === stuck.owner);
    await stuck.stop({ abandonAfterMs: 100 });
    // Given back as it was: still due, for the next runner.
    expect(await row(b.id)).toMatchObject({ leaseOwner: null, leaseUntil: null, reconcileAt: due });
    release!();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await row(b.id)).reconcileAt).toEqual(due);
  });

  it('never lets two runners on one database act on one row at once', async () => {
    // With PostgreSQL each runner has its own connection pool, as two replicas would.
    const other: Database = database.url
      ? await openDatabase({ databaseUrl: database.url, poolSize: 4 })
      : database;
    try {
      const rows = await database.db
        .insert(things)
        .values(Array.from({ length: 12 }, (_, i) => ({ label: `r${i}` })))
        .returning();
      const ids = rows.map((x) => x.id);
      const active = new Set<number>();
      const overlaps: number[] = [];
      const byRunner = [0, 0];
      let passes = 0;
      const work =
        (n: number): Reconcile =>
        async (id) => {
          if (active.has(id)) overlaps.push(id);
          active.add(id);
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
          active.delete(id);
          byRunner[n]!++;
          passes++;
          // Due again at once: both runners keep contending for every row.
          return new Date();
        };
      const one = runner(work(0), { intervalMs: 5, concurrency: 4 });
      const two = runner(work(1), { intervalMs: 5, concurrency: 4 }, other.db);
      one.start();
      two.start();
      await waitFor('many passes', async () => passes >= 150, 60_000, 50);
      await Promise.all([one.stop(), two.stop()]);
      expect(overlaps).toEqual([]);
      expect(byRunner[0]).toBeGreaterThan(0);
      expect(byRunner[1]).toBeGreaterThan(0);
      const left = await database.db.select().from(things).where(inArray(things.id, ids));
      expect(left.every((x) => x.leaseOwner === null)).toBe(true);
    } finally {
      if (other !== database) await other.close();
    }
  });
});
