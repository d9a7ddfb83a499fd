import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import * as schema from '../src/db/schema/index.js';
import { organizationBilling, organizations } from '../src/db/schema/index.js';
import { billingOf, organizationOfStripeCustomer } from '../src/domains/billing/organization-billing.js';
import { MIGRATIONS_DIR } from '../src/paths.js';

// Migration 0038 moves an organization's billing state from organizations to billing's
// organization_billing: a database made before it keeps every organization's state, read back
// through billing, and every organization inserted after it has its row.

type Journal = { entries: { idx: number; tag: string }[] };

/** The migrations folder as it was before 0038: the journal's entries up to 0037 and their files. */
function migrationsUpTo(last: number, into: string): string {
  const journal = JSON.parse(
    readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  const entries = journal.entries.filter((e) => e.idx <= last);
  mkdirSync(path.join(into, 'meta'), { recursive: true });
  writeFileSync(path.join(into, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries)
    copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(into, `${e.tag}.sql`));
  return into;
}

/** An empty database migrated by `migrate(folder)`: PostgreSQL's with DATABASE_URL, else PGlite's. */
async function emptyDatabase(): Promise<{
  db: Db;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const pglite = await PGlite.create('memory://', { extensions: { pg_trgm } });
    const db = drizzlePglite(pglite, { schema });
    return {
      db: db as unknown as Db,
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => pglite.close(),
    };
  }
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const name = `billing_migration_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}" template template0`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: own.toString() });
  await client.connect();
  const db = drizzlePg(client, { schema });
  return {
    db: db as unknown as Db,
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    async close() {
      await client.end();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

describe('migration 0038: organization billing moves to billing', () => {
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  let folder: string;
  let paying: number;
  let plain: number;
  const trial = new Date('2026-12-01T10:00:00Z');
  const cancelAt = new Date('2027-01-01T00:00:00Z');

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'cumulus-migrations-'));
    database = await emptyDatabase();
    await database.migrate(migrationsUpTo(37, folder));
    // Organizations as a server before 0038 kept them: the billing state on their own row.
    const inserted = await database.db.execute(sql`
      insert into organizations (name, billing_method, credit_value_micro_usd,
        spend_limit_should_stop_instances, stripe_customer_id, subscription_status, trial_expiration,
        next_phase_tier, cancel_at)
      values ('acme', 'stripe', 42000, false, 'cus_acme', 'past_due', ${trial.toISOString()},
        'free', ${cancelAt.toISOString()})
      returning id`);
    paying = (inserted as unknown as { rows: { id: number }[] }).rows[0]!.id;
    const [other] = await database.db.insert(organizations).values({ name: 'plain' }).returning();
    plain = other!.id;
    await database.migrate(MIGRATIONS_DIR);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("keeps every organization's billing state, read back through billing", async () => {
    expect(await billingOf(database.db, paying)).toEqual({
      organizationId: paying,
      billingMethod: 'stripe',
      creditValueMicroUsd: 42_000,
      spendLimitShouldStopInstances: false,
      stripeCustomerId: 'cus_acme',
      subscriptionStatus: 'past_due',
      trialExpiration: trial,
      nextPhaseTier: 'free',
      cancelAt,
    });
    expect(await organizationOfStripeCustomer(database.db, 'cus_acme')).toBe(paying);
    expect(await billingOf(database.db, plain)).toMatchObject({
      billingMethod: '',
      creditValueMicroUsd: 50_000,
      spendLimitShouldStopInstances: true,
      stripeCustomerId: null,
      subscriptionStatus: null,
    });
    const columns = await database.db.execute(
      sql`select column_name from information_schema.columns where table_name = 'organizations' order by 1`,
    );
    expect(
      (columns as unknown as { rows: { column_name: string }[] }).rows.map((r) => r.column_name),
    ).toEqual(['created', 'id', 'is_personal', 'name']);
  });

  it('gives an organization inserted afterwards its row, whoever inserts it, and drops it with it', async () => {
    const [created] = await database.db.insert(organizations).values({ name: 'new' }).returning();
    expect(await billingOf(database.db, created!.id)).toEqual({
      organizationId: created!.id,
      billingMethod: '',
      creditValueMicroUsd: 50_000,
      spendLimitShouldStopInstances: true,
      stripeCustomerId: null,
      subscriptionStatus: null,
      trialExpiration: null,
      nextPhaseTier: null,
      cancelAt: null,
    });
    await database.db.delete(organizations).where(eq(organizations.id, created!.id));
    expect(
      await database.db
        .select()
        .from(organizationBilling)
        .where(eq(organizationBilling.organizationId, created!.id)),
    ).toEqual([]);
  });
});
