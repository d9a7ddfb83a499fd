import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_STATES, clusterProcesses, clusters, PROCESS_STATES } from '../src/db/schema/index.js';
import {
  instanceShouldRun,
  isActiveProcess,
  isAtRest,
  isEnded,
  isLive,
  isResumable,
  isSettled,
  sqlIsEnded,
  sqlLiveCluster,
  sqlNotEnded,
  sqlProcessUp,
  sqlResumableCluster,
  sqlSettledCluster,
} from '../src/domains/clusters/states.js';
import { createClusterRow, createOrganization, createUser, createWorkspace } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const DESIRED = ['ready', 'stopped', 'paused'] as const;

describe('cluster state predicates', () => {
  it('say what they mean', () => {
    expect(isLive({ desiredState: 'ready', state: 'scaling' })).toBe(true);
    expect(isLive({ desiredState: 'ready', state: 'paused' })).toBe(false);
    expect(isLive({ desiredState: 'stopped', state: 'ready' })).toBe(false);
    // Asked to stop but still stopping: its instances may still call.
    expect(isSettled({ desiredState: 'stopped', state: 'stopping' })).toBe(false);
    expect(isSettled({ desiredState: 'stopped', state: 'error' })).toBe(true);
    expect(isSettled({ desiredState: 'paused', state: 'paused' })).toBe(true);
    expect(isResumable({ desiredState: 'paused', state: 'paused' })).toBe(true);
    expect(isResumable({ desiredState: 'paused', state: 'pausing' })).toBe(false);
    expect(['stopped', 'error'].every(isEnded)).toBe(true);
    expect(isEnded('paused')).toBe(false);
    expect(isAtRest('paused')).toBe(true);
    expect(isAtRest('stopping')).toBe(false);
    expect(isActiveProcess({ desiredState: 'started', state: 'pending' })).toBe(true);
    expect(isActiveProcess({ desiredState: 'stopped', state: 'started' })).toBe(false);
    expect(isActiveProcess({ desiredState: 'started', state: 'error' })).toBe(false);
    expect(instanceShouldRun({ desiredState: 'ready', state: 'started' }, { desiredState: 'started' })).toBe(
      true,
    );
    expect(instanceShouldRun({ desiredState: 'ready', state: 'started' }, { desiredState: 'stopped' })).toBe(
      false,
    );
    expect(instanceShouldRun({ desiredState: 'ready', state: 'error' }, { desiredState: 'started' })).toBe(
      false,
    );
  });
});

describe('the SQL fragments', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => ts?.close());

  it('agree with the TypeScript predicates on every (desired, current) pair', async () => {
    const { db } = ts.server.deps;
    const owner = await createUser(ts);
    const workspace = await createWorkspace(ts, await createOrganization(ts, owner));
    const ids: number[] = [];
    for (const desiredState of DESIRED) {
      for (const state of CLUSTER_STATES) {
        const row = await createClusterRow(ts, workspace, owner);
        await db.update(clusters).set({ desiredState, state }).where(eq(clusters.id, row.id));
        ids.push(row.id);
      }
    }
    const rows = await db
      .select({
        desiredState: clusters.desiredState,
        state: clusters.state,
        live: sql<boolean>`${sqlLiveCluster}`,
        settled: sql<boolean>`${sqlSettledCluster}`,
        resumable: sql<boolean>`${sqlResumableCluster}`,
        ended: sql<boolean>`${sqlIsEnded(clusters.state)}`,
      })
      .from(clusters)
      .where(inArray(clusters.id, ids));
    expect(rows).toHaveLength(DESIRED.length * CLUSTER_STATES.length);
    for (const r of rows) {
      expect(r).toEqual({
        desiredState: r.desiredState,
        state: r.state,
        live: isLive(r),
        settled: isSettled(r),
        resumable: isResumable(r),
        ended: isEnded(r.state),
      });
    }

    const [cluster] = ids;
    await db
      .insert(clusterProcesses)
      .values(
        PROCESS_STATES.map((state) => ({ clusterId: cluster!, role: 'worker' as const, name: state, state })),
      );
    const processes = await db
      .select({
        state: clusterProcesses.state,
        notEnded: sql<boolean>`${sqlNotEnded(clusterProcesses.state)}`,
        up: sql<boolean>`${sqlProcessUp(clusterProcesses.state)}`,
      })
      .from(clusterProcesses)
      .where(eq(clusterProcesses.clusterId, cluster!));
    for (const p of processes) {
      expect(p.notEnded).toBe(!isEnded(p.state));
      expect(p.up).toBe(['pending', 'starting', 'started'].includes(p.state));
    }
  });
});
