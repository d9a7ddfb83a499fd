import { eq } from 'drizzle-orm';
import { authFile } from '../../../compute/podman.js';
import { clusters } from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import { containerFor } from '../../software/index.js';
import type { ClusterDeps } from '../ports.js';

/**
 * The containers auth file (`{"auths": {registry: {"auth": base64(user:password)}}}`, what podman's
 * `--authfile` and docker's config.json read) with the workspace's login for the registry of the
 * calling cluster's image: that registry alone, and only where the cluster runs a container
 * environment whose image is on the registry the workspace set up. What an instance's user-data
 * fetches just before it pulls the image (aws/container-script.ts), so the password is in no
 * user-data and on no command line. Not found otherwise: the image is pulled without a login.
 */
export async function registryAuthOf(deps: ClusterDeps, clusterId: number) {
  const [cluster] = await deps.db
    .select({ workspaceId: clusters.workspaceId, buildId: clusters.softwareBuildId })
    .from(clusters)
    .where(eq(clusters.id, clusterId));
  const container = cluster ? await containerFor(deps.db, cluster.buildId) : null;
  const login =
    container && (await deps.clusterPorts.registryLogin(cluster!.workspaceId, container.reference));
  if (!login) throw notFound("This cluster's image needs no registry login.");
  return JSON.parse(authFile(login)) as { auths: Record<string, { auth: string }> };
}
