import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { SshHost, SshHostsPort } from '../../../compute/ssh/ssh-backend.js';
import { coolHost, keepWarm, WARM_IDLE_SECONDS } from '../../../compute/ssh/warm.js';
import type { Db } from '../../../db/client.js';
import { type SshHostRow, sshHosts, sshPlacements } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { conflict, fieldError, notFound } from '../../../http/errors.js';
import type { SecretBox } from '../../../lib/crypto.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { refreshWorkspaceBackend } from '../workspace-backend.js';
import { checkHost } from './health.js';
import type { sshHostAnswer, sshHostBody } from './schemas.js';

/** The field a failed check at registration is about. */
const FIELD_OF = {
  unreachable: 'address',
  host_key_mismatch: 'host_key',
  refused: 'private_key',
  no_dask: 'python',
} as const;

const targetOf = (row: SshHostRow, box: SecretBox) => ({
  name: `${row.name} (${row.address})`,
  address: row.address,
  port: row.port,
  user: row.user,
  hostKey: row.hostKey,
  privateKey: box.decrypt(row.keyBox),
});

const warmHostOf = (row: SshHostRow, box: SecretBox) => ({
  ...targetOf(row, box),
  id: row.id,
  python: row.python,
});

/**
 * Keeps the host's warm processes (compute/ssh/warm.ts: agents started, Dask imported, for its next
 * instances to take), `size` of them, after a check it passed; a failure is the next check's to mend.
 */
async function keepHostWarm(row: SshHostRow, box: SecretBox, size: number): Promise<void> {
  if (size <= 0 || row.health?.status !== 'ok') return;
  await keepWarm(warmHostOf(row, box), { size, idleSeconds: WARM_IDLE_SECONDS }).catch(() => undefined);
}

async function usedOn(db: Db, hostIds: number[]) {
  if (hostIds.length === 0) return new Map<number, { cores: number; memoryMib: number; gpus: number }>();
  const rows = await db
    .select({
      hostId: sshPlacements.hostId,
      cores: sql<number>`sum(${sshPlacements.cores})::int`,
      memoryMib: sql<number>`sum(${sshPlacements.memoryMib})::int`,
      gpus: sql<number>`sum(${sshPlacements.gpus})::int`,
    })
    .from(sshPlacements)
    .where(inArray(sshPlacements.hostId, hostIds))
    .groupBy(sshPlacements.hostId);
  return new Map(
    rows.map((r) => [
      r.hostId,
      { cores: Number(r.cores), memoryMib: Number(r.memoryMib), gpus: Number(r.gpus) },
    ]),
  );
}

function present(
  row: SshHostRow,
  used?: { cores: number; memoryMib: number; gpus: number },
): z.infer<typeof sshHostAnswer> {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    port: row.port,
    user: row.user,
    host_key: row.hostKey,
    cores: row.cores,
    memory_mib: row.memoryMib,
    gpus: row.gpus,
    labels: row.labels,
    python: row.python,
    health: row.health ?? null,
    checked_at: isoTimeOrNull(row.checkedAt),
    used_cores: used?.cores ?? 0,
    used_memory_mib: used?.memoryMib ?? 0,
    used_gpus: used?.gpus ?? 0,
    created: isoTime(row.created),
  };
}

export async function listHosts(deps: Deps, access: WorkspaceAccess) {
  const rows = await deps.db
    .select()
    .from(sshHosts)
    .where(eq(sshHosts.workspaceId, access.workspace.id))
    .orderBy(sshHosts.name);
  const used = await usedOn(
    deps.db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => present(r, used.get(r.id))), count: rows.length };
}

/**
 * Registers a host once it passes its check (reachable with the pinned key as the account given,
 * Python with Dask); the private key is sealed like cloud secrets and never shown again.
 */
export async function registerHost(deps: Deps, access: WorkspaceAccess, body: z.infer<typeof sshHostBody>) {
  const { workspace, user } = access;
  const [same] = await deps.db
    .select({ id: sshHosts.id })
    .from(sshHosts)
    .where(and(eq(sshHosts.workspaceId, workspace.id), eq(sshHosts.name, body.name)));
  if (same) throw fieldError('name', `This workspace already has a host named ${body.name}.`);
  const target = {
    name: `${body.name} (${body.address})`,
    address: body.address,
    port: body.port,
    user: body.user,
    hostKey: body.host_key,
    privateKey: body.private_key,
  };
  const health = await checkHost(target, body.python);
  if (health.status !== 'ok') throw fieldError(FIELD_OF[health.status], health.message);
  const [row] = await deps.db
    .insert(sshHosts)
    .values({
      workspaceId: workspace.id,
      name: body.name,
      address: body.address,
      port: body.port,
      user: body.user,
      hostKey: body.host_key.split(/\s+/).slice(0, 2).join(' '),
      keyBox: deps.cloudSecrets.encrypt(body.private_key),
      cores: body.cores,
      memoryMib: body.memory_mib,
      gpus: body.gpus,
      labels: body.labels,
      python: body.python,
      health,
      checkedAt: new Date(),
      creatorId: user.id,
    })
    .returning();
  // New clusters of the workspace run on its hosts from now on.
  await refreshWorkspaceBackend(deps.db, workspace.id);
  // Its warm processes start meanwhile: the answer does not wait for them.
  void keepHostWarm(row!, deps.cloudSecrets, deps.config.sshWarmProcesses);
  return present(row!);
}

async function ownHost(db: Db, workspaceId: number, hostId: number): Promise<SshHostRow> {
  const [row] = await db
    .select()
    .from(sshHosts)
    .where(and(eq(sshHosts.workspaceId, workspaceId), eq(sshHosts.id, hostId)));
  if (!row) throw notFound();
  return row;
}

/** Checks a host again now and keeps what it found; a healthy host's warm processes are kept (`warm` of them). */
export async function recheckHost(db: Db, box: SecretBox, row: SshHostRow, warm: number) {
  const health = await checkHost(targetOf(row, box), row.python);
  const [updated] = await db
    .update(sshHosts)
    .set({ health, checkedAt: new Date() })
    .where(eq(sshHosts.id, row.id))
    .returning();
  await keepHostWarm(updated ?? { ...row, health }, box, warm);
  return updated ?? row;
}

export async function checkHostNow(deps: Deps, access: WorkspaceAccess, hostId: number) {
  const row = await recheckHost(
    deps.db,
    deps.cloudSecrets,
    await ownHost(deps.db, access.workspace.id, hostId),
    deps.config.sshWarmProcesses,
  );
  return present(row, (await usedOn(deps.db, [row.id])).get(row.id));
}

/** Forgets a host, refused while Cumulus runs instances there. */
export async function removeHost(deps: Deps, access: WorkspaceAccess, hostId: number) {
  const row = await ownHost(deps.db, access.workspace.id, hostId);
  const used = (await usedOn(deps.db, [row.id])).get(row.id);
  if (used)
    throw conflict(`Clusters run on ${row.name} (${used.cores} cores): stop them before removing the host.`);
  await deps.db.delete(sshHosts).where(eq(sshHosts.id, row.id));
  await refreshWorkspaceBackend(deps.db, access.workspace.id);
  // Its warm processes end with it (where the host answers; else they leave their pool unkept).
  await coolHost(warmHostOf(row, deps.cloudSecrets)).catch(() => undefined);
  return { deleted: true };
}

/** The periodic check: every host of every workspace, one at a time. */
export async function checkAllHosts(db: Db, box: SecretBox, warm: number): Promise<void> {
  for (const row of await db.select().from(sshHosts))
    await recheckHost(db, box, row, warm).catch(() => undefined);
}

/** The host registry as the ssh backend sees it (compute/ssh/ssh-backend.ts). */
export function sshHostsPort(db: Db, box: SecretBox): SshHostsPort {
  const hostOf = (row: SshHostRow): SshHost => ({
    ...targetOf(row, box),
    id: row.id,
    workspaceId: row.workspaceId,
    cores: row.cores,
    memoryMib: row.memoryMib,
    gpus: row.gpus,
    labels: row.labels,
    python: row.python,
  });
  return {
    async healthyHosts(workspaceId) {
      const rows = await db.select().from(sshHosts).where(eq(sshHosts.workspaceId, workspaceId));
      return rows.filter((r) => r.health?.status === 'ok').map(hostOf);
    },
    async host(workspaceId, hostId) {
      const [row] = await db
        .select()
        .from(sshHosts)
        .where(and(eq(sshHosts.workspaceId, workspaceId), eq(sshHosts.id, hostId)));
      return row ? hostOf(row) : null;
    },
    async placeOnOneOf(hostIds, choose) {
      return db.transaction(async (tx) => {
        // The hosts' rows locked, in one order: a second placement on them (this server's or
        // another's) reads their placements once this one is recorded.
        if (hostIds.length > 0)
          await tx
            .select({ id: sshHosts.id })
            .from(sshHosts)
            .where(inArray(sshHosts.id, hostIds))
            .orderBy(sshHosts.id)
            .for('update');
        const placed =
          hostIds.length === 0
            ? []
            : await tx.select().from(sshPlacements).where(inArray(sshPlacements.hostId, hostIds));
        const placement = choose(placed);
        await tx.insert(sshPlacements).values(placement).onConflictDoNothing();
        return placement;
      });
    },
    async placementOf(backendId) {
      const [row] = await db.select().from(sshPlacements).where(eq(sshPlacements.backendId, backendId));
      return row ?? null;
    },
    async unplace(backendId) {
      await db.delete(sshPlacements).where(eq(sshPlacements.backendId, backendId));
    },
  };
}

/** Whether the workspace has registered hosts: its new clusters then run on them. */
export async function hasHosts(db: Db, workspaceId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: sshHosts.id })
    .from(sshHosts)
    .where(eq(sshHosts.workspaceId, workspaceId))
    .limit(1);
  return !!row;
}
