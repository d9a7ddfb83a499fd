import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { quote, runOnLogin, type SlurmLogin } from '../../../compute/slurm/login.js';
import { type RestLogin, restPartitions, restPing } from '../../../compute/slurm/rest.js';
import type { SlurmCluster, SlurmClustersPort } from '../../../compute/slurm/slurm-backend.js';
import { SshFailure } from '../../../compute/ssh/connection.js';
import type { Db } from '../../../db/client.js';
import { type SlurmClusterHealth, type SlurmClusterRow, slurmClusters } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { conflict, fieldError, notFound } from '../../../http/errors.js';
import type { SecretBox } from '../../../lib/crypto.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import { clustersHoldingMachines } from '../../clusters/index.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { refreshWorkspaceBackend } from '../workspace-backend.js';
import type { SlurmLoginKind, slurmClusterAnswer, slurmClusterBody } from './schemas.js';

type Body = z.infer<typeof slurmClusterBody>;

/** The field a failed check at connection is about, by login. */
const FIELD_OF = {
  ssh: {
    unreachable: 'address',
    host_key_mismatch: 'host_key',
    refused: 'private_key',
    no_slurm: 'partition',
  },
  local: { unreachable: 'login', host_key_mismatch: 'login', refused: 'login', no_slurm: 'partition' },
  rest: { unreachable: 'rest_url', host_key_mismatch: 'rest_url', refused: 'token', no_slurm: 'partition' },
} as const;

/** The login as the backend uses it; `secret` is its private key (ssh) or JWT (rest), unsealed. */
const loginOf = (
  row: Pick<SlurmClusterRow, 'name' | 'login' | 'address' | 'port' | 'user' | 'hostKey' | 'restUrl'>,
  secret: string | null,
): SlurmLogin =>
  row.login === 'local'
    ? { mode: 'local', name: `${row.name} (this machine)` }
    : row.login === 'rest'
      ? {
          mode: 'rest',
          name: `${row.name} (${row.restUrl})`,
          url: (row.restUrl ?? '').replace(/\/+$/, ''),
          user: row.user ?? '',
          token: secret ?? '',
        }
      : {
          mode: 'ssh',
          name: `${row.name} (${row.address})`,
          address: row.address ?? '',
          port: row.port ?? 22,
          user: row.user ?? '',
          hostKey: row.hostKey ?? '',
          privateKey: secret ?? '',
        };

const unsealedLogin = (row: SlurmClusterRow, box: SecretBox) =>
  loginOf(row, row.keyBox ? box.decrypt(row.keyBox) : null);

const noPartition = (login: SlurmLogin, partition: string | null): SlurmClusterHealth => ({
  status: 'no_slurm',
  message: partition
    ? `${login.name} has no Slurm partition ${partition}`
    : `${login.name} lists no Slurm partition`,
});

/** Checks the login node as the backend will use it: reached (the pinned key only), Slurm's commands there, the partition up. */
export async function checkLogin(login: SlurmLogin, partition: string | null): Promise<SlurmClusterHealth> {
  if (login.mode === 'rest') return checkRest(login, partition);
  const script = `for c in sbatch squeue scancel sinfo; do command -v $c >/dev/null || { echo "$c is not on the PATH of $(id -un) on $(hostname)"; exit 3; }; done
sinfo -h ${partition ? `-p ${quote(partition)} ` : ''}-o '%P %a %D %t' 2>&1`;
  let result: Awaited<ReturnType<typeof runOnLogin>>;
  try {
    result = await runOnLogin(login, script);
  } catch (err) {
    if (!(err instanceof SshFailure)) throw err;
    const status = { host_key: 'host_key_mismatch', auth: 'refused', unreachable: 'unreachable' } as const;
    return { status: status[err.kind], message: err.message };
  }
  const said = (result.stdout + result.stderr).trim().slice(0, 500);
  if (result.code !== 0) return { status: 'no_slurm', message: said || `sinfo failed on ${login.name}` };
  if (!said) return noPartition(login, partition);
  return { status: 'ok', message: `Slurm answers on ${login.name}`, partition_state: said.split('\n')[0] };
}

/** Checks slurmrestd as the backend will use it: the token reaches slurmctld (ping), the partition is listed. */
async function checkRest(login: RestLogin, partition: string | null): Promise<SlurmClusterHealth> {
  const expires = tokenExpiry(login.token);
  if (expires && expires.getTime() <= Date.now())
    return {
      status: 'refused',
      message: `The slurmrestd token of ${login.user} expired at ${expires.toISOString()}: an admin gives a new one (scontrol token username=${login.user} lifespan=...), on the Setup page or PUT /api/v2/slurm-clusters/{workspace}/{cluster}/token.`,
    };
  let partitions: Awaited<ReturnType<typeof restPartitions>>;
  try {
    await restPing(login);
    partitions = await restPartitions(login);
  } catch (err) {
    if (!(err instanceof SshFailure))
      return { status: 'no_slurm', message: String((err as Error).message ?? err) };
    return { status: err.kind === 'auth' ? 'refused' : 'unreachable', message: err.message };
  }
  const found = partition ? partitions.find((p) => p.name === partition) : partitions[0];
  if (!found) return noPartition(login, partition);
  return { status: 'ok', message: `Slurm answers on ${login.name}`, partition_state: found.line };
}

/** A JWT's expiry (its `exp` claim), null when it has none or cannot be read. */
export function tokenExpiry(token: string): Date | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof claims?.exp === 'number' ? new Date(claims.exp * 1000) : null;
  } catch {
    return null;
  }
}

function present(row: SlurmClusterRow, box: SecretBox): z.infer<typeof slurmClusterAnswer> {
  const expires = row.login === 'rest' && row.keyBox ? tokenExpiry(box.decrypt(row.keyBox)) : null;
  return {
    id: row.id,
    name: row.name,
    login: row.login,
    address: row.address,
    port: row.port,
    user: row.user,
    host_key: row.hostKey,
    rest_url: row.restUrl,
    token_expires: expires ? expires.toISOString() : null,
    partition: row.partition,
    slurm_account: row.slurmAccount,
    qos: row.qos,
    time_limit_minutes: row.timeLimitMinutes,
    node_cores: row.nodeCores,
    node_memory_mib: row.nodeMemoryMib,
    node_gpus: row.nodeGpus,
    python: row.python,
    health: row.health ?? null,
    checked_at: isoTimeOrNull(row.checkedAt),
    created: isoTime(row.created),
  };
}

export async function listClusters(deps: Deps, access: WorkspaceAccess) {
  const rows = await deps.db
    .select()
    .from(slurmClusters)
    .where(eq(slurmClusters.workspaceId, access.workspace.id));
  return {
    items: rows.map((r) => present(r, deps.cloudSecrets)),
    count: rows.length,
    logins: loginsAccepted(deps),
  };
}

/** How this server accepts a login node: from its own machine only where its operator allows it. */
export function loginsAccepted(deps: Pick<Deps, 'config'>): SlurmLoginKind[] {
  return deps.config.slurmLocalLogin ? ['ssh', 'local', 'rest'] : ['ssh', 'rest'];
}

/**
 * Connects the workspace's Slurm cluster once its login node (or slurmrestd) passes its check; the
 * private key (or JWT) is sealed like cloud secrets and never shown again. Submitting from this machine is the operator's
 * choice (CUMULUS_SLURM_LOCAL_LOGIN): jobs then run as the server's own user.
 */
export async function connectCluster(deps: Deps, access: WorkspaceAccess, body: Body) {
  const { workspace, user } = access;
  const [same] = await deps.db
    .select({ id: slurmClusters.id })
    .from(slurmClusters)
    .where(eq(slurmClusters.workspaceId, workspace.id));
  if (same) throw conflict('This workspace has a Slurm cluster already: disconnect it first.');
  if (body.login === 'local' && !deps.config.slurmLocalLogin)
    throw fieldError(
      'login',
      'This server is not a Slurm login node (CUMULUS_SLURM_LOCAL_LOGIN): connect the login node over SSH.',
    );
  const ssh = body.login === 'ssh';
  const rest = body.login === 'rest';
  const row = {
    name: body.name,
    login: body.login,
    address: ssh ? (body.address ?? null) : null,
    port: ssh ? body.port : null,
    user: ssh || rest ? (body.user ?? null) : null,
    hostKey: ssh && body.host_key ? body.host_key.split(/\s+/).slice(0, 2).join(' ') : null,
    restUrl: rest ? (body.rest_url ?? null) : null,
  };
  // The login's secret: the SSH private key, or slurmrestd's JWT.
  const secret = (ssh ? body.private_key : rest ? body.token : undefined) ?? null;
  const health = await checkLogin(loginOf(row, secret), body.partition ?? null);
  if (health.status !== 'ok') throw fieldError(FIELD_OF[body.login][health.status], health.message);
  const [inserted] = await deps.db
    .insert(slurmClusters)
    .values({
      ...row,
      workspaceId: workspace.id,
      keyBox: secret ? deps.cloudSecrets.encrypt(secret) : null,
      partition: body.partition ?? null,
      slurmAccount: body.slurm_account ?? null,
      qos: body.qos ?? null,
      timeLimitMinutes: body.time_limit_minutes ?? null,
      nodeCores: body.node_cores,
      nodeMemoryMib: body.node_memory_mib,
      nodeGpus: body.node_gpus,
      python: body.python,
      health,
      checkedAt: new Date(),
      creatorId: user.id,
    })
    .returning();
  // New clusters of the workspace run on it from now on.
  await refreshWorkspaceBackend(deps.db, workspace.id);
  return present(inserted!, deps.cloudSecrets);
}

async function ownCluster(db: Db, workspaceId: number, id: number): Promise<SlurmClusterRow> {
  const [row] = await db
    .select()
    .from(slurmClusters)
    .where(and(eq(slurmClusters.workspaceId, workspaceId), eq(slurmClusters.id, id)));
  if (!row) throw notFound();
  return row;
}

async function recheck(db: Db, box: SecretBox, row: SlurmClusterRow) {
  const health = await checkLogin(unsealedLogin(row, box), row.partition);
  const [updated] = await db
    .update(slurmClusters)
    .set({ health, checkedAt: new Date() })
    .where(eq(slurmClusters.id, row.id))
    .returning();
  return updated ?? row;
}

export async function checkClusterNow(deps: Deps, access: WorkspaceAccess, id: number) {
  return present(
    await recheck(deps.db, deps.cloudSecrets, await ownCluster(deps.db, access.workspace.id, id)),
    deps.cloudSecrets,
  );
}

/**
 * Gives a cluster reached through slurmrestd a new token (the old one expires), once slurmrestd
 * takes it; sealed like the first. Running clusters use it from their next call: nothing stops.
 */
export async function replaceToken(deps: Deps, access: WorkspaceAccess, id: number, token: string) {
  const row = await ownCluster(deps.db, access.workspace.id, id);
  if (row.login !== 'rest')
    throw fieldError(
      'token',
      `${row.name} is reached through its login node (login "${row.login}"), not slurmrestd: it has no token.`,
    );
  const health = await checkLogin(loginOf(row, token), row.partition);
  if (health.status !== 'ok') throw fieldError(FIELD_OF.rest[health.status], health.message);
  const [updated] = await deps.db
    .update(slurmClusters)
    .set({ keyBox: deps.cloudSecrets.encrypt(token), health, checkedAt: new Date() })
    .where(eq(slurmClusters.id, row.id))
    .returning();
  return present(updated ?? row, deps.cloudSecrets);
}

/** Disconnects the Slurm cluster, refused while Cumulus runs jobs there. */
export async function disconnectCluster(deps: Deps, access: WorkspaceAccess, id: number) {
  const row = await ownCluster(deps.db, access.workspace.id, id);
  const holding = await clustersHoldingMachines(deps.db, row.workspaceId, 'slurm');
  if (holding.length > 0)
    throw conflict(
      `Clusters run on ${row.name} (${holding.map((c) => c.name).join(', ')}): stop them before disconnecting it.`,
    );
  await deps.db.delete(slurmClusters).where(eq(slurmClusters.id, row.id));
  await refreshWorkspaceBackend(deps.db, access.workspace.id);
  return { deleted: true };
}

/** The periodic check: every workspace's Slurm cluster, one at a time. */
export async function checkAllClusters(db: Db, box: SecretBox): Promise<void> {
  for (const row of await db.select().from(slurmClusters)) await recheck(db, box, row).catch(() => undefined);
}

/** The registry as the slurm backend sees it (compute/slurm/slurm-backend.ts). */
export function slurmClustersPort(db: Db, box: SecretBox): SlurmClustersPort {
  return {
    async clusterOf(workspaceId): Promise<SlurmCluster | null> {
      const [row] = await db.select().from(slurmClusters).where(eq(slurmClusters.workspaceId, workspaceId));
      if (!row) return null;
      return {
        id: row.id,
        workspaceId: row.workspaceId,
        name: row.name,
        login: unsealedLogin(row, box),
        partition: row.partition,
        account: row.slurmAccount,
        qos: row.qos,
        timeLimitMinutes: row.timeLimitMinutes,
        nodeCores: row.nodeCores,
        nodeMemoryMib: row.nodeMemoryMib,
        nodeGpus: row.nodeGpus,
        python: row.python,
      };
    },
  };
}

/** Whether the workspace has connected a Slurm cluster: its new clusters then run there. */
export async function hasSlurmCluster(db: Db, workspaceId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: slurmClusters.id })
    .from(slurmClusters)
    .where(eq(slurmClusters.workspaceId, workspaceId))
    .limit(1);
  return !!row;
}
