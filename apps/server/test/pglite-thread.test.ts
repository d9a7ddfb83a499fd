import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { PgliteThread } from '../src/db/pglite-thread.js';

// The embedded database in its worker thread: statements, transactions, and a thread that ends.
describe('the embedded database thread', () => {
  it('commits a transaction that returns, rolls back one that throws, and refuses calls once it has ended', async () => {
    const db = await PgliteThread.create('memory://', {
      startParams: PGlite.defaultStartParams,
      relaxedDurability: false,
    });
    await db.exec('create table t (n int)');
    await db.transaction(async (tx) => {
      await tx.query('insert into t values ($1)', [1]);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t values ($1)', [2]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A database error keeps its fields (code), as PGlite's own would.
    await expect(db.query('insert into t values ($1)', ['not a number'])).rejects.toMatchObject({
      code: '22P02',
    });
    expect((await db.query('select n from t order by n')).rows).toEqual([{ n: 1 }]);

    await db.close();
    // Nothing waits forever on a thread that is gone.
    await expect(db.query('select 1')).rejects.toThrow(/thread ended/);
  });
});
