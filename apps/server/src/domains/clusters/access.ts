import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { type Cluster, clusters, instances, type User } from '../../db/schema/index.js';
import { type AccessResolver, accessResolver } from '../../http/access.js';
import { currentUser } from '../../http/auth.js';
import { ApiError, notFound, permissionDenied } from '../../http/errors.js';
import {
  numericParam,
  type WorkspaceAccess,
  workspaceAccess,
  workspaceAccessBy,
  workspaceOfPath,
} from '../identity/index.js';

/**
 * Who may do what with clusters: the workspace's readers (members, its organization's admins,
 * staff) see them; members and organization admins create them; the creator, workspace admins
 * and organization admins stop and scale them. Clusters of other workspaces are 404s.
 */
export const clusterNotFound = () => notFound('Cluster not found.');

export interface ClusterAccess {
  access: WorkspaceAccess;
  cluster: Cluster;
}

/**
 * What a route may ask of the clusters domain's access (resolved by the one pre-handler,
 * http/access.ts): `cluster: 'read'` is the cluster `pk` of the path's workspace (`account`);
 * `{ param }` names the path's cluster parameter instead; `{ id }` finds the cluster by that
 * parameter alone (calls without the workspace in their path); `{ instance }` by one of its
 * instances; `{ key }` by an id found elsewhere (null: none). The cluster's workspace access comes along as `request.access.workspace`.
 */
export type ClusterRequirement =
  | 'read'
  | { param: string }
  | { id: string }
  | { instance: string }
  /** A cluster by an id the request gives elsewhere (a body); null: none, nothing is resolved. */
  | { key: (request: FastifyRequest) => number | null };

declare module '../../http/access.js' {
  interface AccessNeeds {
    cluster?: ClusterRequirement;
  }
  interface RequestAccess {
    cluster?: ClusterAccess;
  }
}

export function clusterAccessResolvers(db: Db): AccessResolver[] {
  return [
    accessResolver('cluster', async (request, requirement) => {
      if (typeof requirement !== 'string' && 'key' in requirement) {
        const id = requirement.key(request);
        if (id === null) return;
        const found = await clusterAccessById(db, currentUser(request), id);
        request.access.cluster = found;
        request.access.workspace = found.access;
        return;
      }
      const user = currentUser(request);
      const found =
        typeof requirement === 'string' || 'param' in requirement
          ? await clusterAccess(
              db,
              user,
              workspaceOfPath(request).slug,
              numericParam(request, typeof requirement === 'string' ? 'pk' : requirement.param),
            )
          : 'id' in requirement
            ? await clusterAccessById(db, user, numericParam(request, requirement.id))
            : await instanceAccessById(db, user, numericParam(request, requirement.instance));
      request.access.cluster = found;
      request.access.workspace = found.access;
    }),
  ];
}

/** What a route that declared `cluster` was given. */
export function clusterOf(request: FastifyRequest): ClusterAccess {
  const found = request.access?.cluster;
  if (!found) throw new Error(`${request.routeOptions.url} uses cluster access it does not declare`);
  return found;
}

export async function clusterAccess(
  db: Db,
  user: User,
  slug: string,
  clusterId: number,
): Promise<ClusterAccess> {
  const access = await workspaceAccess(db, user, slug);
  const [cluster] = await db
    .select()
    .from(clusters)
    .where(and(eq(clusters.id, clusterId), eq(clusters.workspaceId, access.workspace.id)))
    .limit(1);
  if (!cluster) throw clusterNotFound();
  return { access, cluster };
}

/** A cluster by id alone (calls without the workspace in their path). */
export async function clusterAccessById(db: Db, user: User, clusterId: number): Promise<ClusterAccess> {
  const [cluster] = await db.select().from(clusters).where(eq(clusters.id, clusterId)).limit(1);
  if (!cluster) throw clusterNotFound();
  try {
    return { access: await workspaceAccessBy(db, user, { id: cluster.workspaceId }), cluster };
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) throw clusterNotFound();
    throw err;
  }
}

/** The cluster of an instance the caller may read (calls that name only the instance). */
export async function instanceAccessById(db: Db, user: User, instanceId: number): Promise<ClusterAccess> {
  const [row] = await db
    .select({ clusterId: instances.clusterId })
    .from(instances)
    .where(eq(instances.id, instanceId))
    .limit(1);
  const notThere = () => notFound('Instance not found.');
  if (!row) throw notThere();
  try {
    return await clusterAccessById(db, user, row.clusterId);
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) throw notThere();
    throw err;
  }
}

export function assertMayCreate(access: WorkspaceAccess): void {
  if (!access.membership && !access.isOrganizationAdmin)
    throw permissionDenied(
      `You are not a member of ${access.workspace.name}, so you cannot create clusters in it.`,
    );
}

/** Stop, pause and scale: the creator and the workspace's admins. */
export function assertMayManage(user: User, { access, cluster }: ClusterAccess): void {
  if (cluster.creatorId === user.id && (access.membership || access.isOrganizationAdmin)) return;
  if (access.isAdmin) return;
  throw permissionDenied(
    `Only the creator of ${cluster.name} and admins of ${access.workspace.name} can stop or scale it.`,
  );
}
