import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { ServingClock } from '../src/loops/serving.js';
import { openTestDatabase } from './helpers/database.js';

/** The shared "serving since" every replica judges heartbeats from (loops/serving.ts). */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long beside the marks' own time on a loaded machine (a mark 250 ms late read as a gap at 400). */
const GAP_MS = 2000;

describe('the serving clock', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.migrate();
  });
  afterAll(() => database.close());

  it('starts a serving period after a gap of every replica, not when one replica starts among serving ones', async () => {
    const a = new ServingClock(database.db, 100, GAP_MS);
    expect(a.since()).toBeNull();
    const first = await a.mark();
    expect(a.since()).toEqual(first);

    // A replica starting while another serves: the control plane never stopped.
    await sleep(150);
    const b = new ServingClock(database.db, 100, GAP_MS);
    expect(await b.mark()).toEqual(first);
    expect(await a.mark()).toEqual(first);

    // Nobody marks for longer than the gap (every replica down, or the database away).
    await sleep(GAP_MS + 200);
    expect(a.since()).toBeNull();
    const resumed = await b.mark();
    expect(resumed.getTime()).toBeGreaterThan(first.getTime() + GAP_MS + 200);
    expect(await a.mark()).toEqual(resumed);
  });
});
