import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { openTestDatabase } from './helpers/database.js';

/**
 * Code handed a transaction may ask it several things at once (a read helper's Promise.all,
 * written for the pool). One connection answers one statement at a time: the statements wait
 * for each other, in order, and nothing relies on pg's own queue (deprecated in pg 8, gone in 9).
 */
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => database?.close());

describe('a transaction asked several things at once', () => {
  it('answers each in order, without queueing on the connection inside pg', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const answers = await database.db.transaction(async (tx) =>
        Promise.all([
          tx.execute(sql`select pg_sleep(0.05), 1 as n`),
          tx.execute(sql`select 2 as n`),
          tx.execute(sql`select 3 as n`),
        ]),
      );
      expect(answers.map((a) => Number((a as unknown as { rows: { n: number }[] }).rows[0]?.n))).toEqual([
        1, 2, 3,
      ]);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
