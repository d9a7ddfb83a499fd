import { and, count as countAll, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusters, type InstanceSpec, instanceSpecs } from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import { countRows, type OffsetQuery, paginate } from '../../../http/pagination.js';
import type { z } from '../../../http/zod.js';
import { isoTime } from '../../../lib/time.js';
import type { instanceSpecSchema } from './schemas.js';

function present(spec: InstanceSpec, clusterName: string): z.infer<typeof instanceSpecSchema> {
  return {
    id: spec.id,
    cluster_id: spec.clusterId,
    cluster_name: clusterName,
    role: spec.role,
    backend_type: spec.backendType,
    instance_type: spec.instanceType,
    requested_instance_types: spec.requestedTypes,
    cores: spec.cores,
    memory_mib: spec.memoryMib,
    gpus: spec.gpus,
    gpu_type: null,
    arch: spec.arch,
    disk_size_gib: spec.diskSizeGib,
    dask_threads: spec.daskThreads,
    dask_memory_limit: spec.daskMemoryLimit,
    created: isoTime(spec.created),
  };
}

const rows = (db: Db) =>
  db
    .select({ spec: instanceSpecs, clusterName: clusters.name })
    .from(instanceSpecs)
    .innerJoin(clusters, eq(clusters.id, instanceSpecs.clusterId));

/** `GET instance_specs/account/{ws}/`: the specs of the workspace's clusters, newest first. */
export async function listInstanceSpecs(db: Db, workspaceId: number, page: OffsetQuery) {
  const where = eq(clusters.workspaceId, workspaceId);
  const { rows: items, count } = await paginate(
    page,
    rows(db).where(where).orderBy(desc(instanceSpecs.id)),
    countRows(
      db
        .select({ n: countAll() })
        .from(instanceSpecs)
        .innerJoin(clusters, eq(clusters.id, instanceSpecs.clusterId))
        .where(where),
    ),
  );
  return { items: items.map((r) => present(r.spec, r.clusterName)), count };
}

export async function findInstanceSpec(db: Db, workspaceId: number, specId: number) {
  const [row] = await rows(db).where(
    and(eq(clusters.workspaceId, workspaceId), eq(instanceSpecs.id, specId)),
  );
  if (!row) throw notFound('Instance spec not found.');
  return present(row.spec, row.clusterName);
}
