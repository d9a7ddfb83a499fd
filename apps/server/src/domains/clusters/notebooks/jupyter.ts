import { eq } from 'drizzle-orm';
import { portsFor } from '../../../compute/backend.js';
import type { Config } from '../../../config.js';
import type { Cluster } from '../../../db/schema/index.js';
import { clusters } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../http/errors.js';
import { Signer } from '../../../lib/crypto.js';
import { callingInstance } from '../cluster-facing/service.js';
import { dashboardPrefix, issuePass, proxyBase } from '../dashboards/passes.js';
import { assertServed } from '../served-address.js';

/**
 * Jupyter on a notebook cluster's scheduler instance (`scheduler_options.jupyter`): the agent starts
 * it with a base URL under the cluster's proxy path and a token only the control plane knows; the
 * proxy (dashboards/proxy.ts) checks the reader's pass on every request and adds that token, so the
 * Jupyter port is no door of its own.
 */
export const jupyterPrefix = (clusterId: number) => `${dashboardPrefix(clusterId)}/jupyter`;

/** Jupyter's own token for a cluster: derived from the server secret, never stored or shown. */
export const jupyterToken = (secret: string, clusterId: number) =>
  new Signer(secret, 'jupyter-token').sign(String(clusterId));

/** Whether a cluster was asked to run Jupyter (the client's `scheduler_options.jupyter`). */
export const wantsJupyter = (cluster: Pick<Cluster, 'schedulerOptions'>) =>
  cluster.schedulerOptions.jupyter === true;

/**
 * The reader's link to a notebook cluster's Jupyter, carrying their own pass like
 * `dashboard_address`: for its creator only. A notebook runs code as the one who started it
 * (with what they forwarded, such as cloud credentials): other members see that it exists, and
 * no link; the proxy refuses their passes (dashboards/proxy.ts).
 */
export function jupyterLink(
  config: Pick<Config, 'publicUrl' | 'proxyOrigin'>,
  secret: string,
  cluster: Pick<Cluster, 'id' | 'jupyterAddress' | 'jupyterUi' | 'creatorId'>,
  userId: number,
): string | null {
  if (!cluster.jupyterAddress || cluster.creatorId !== userId) return null;
  const ui = cluster.jupyterUi === 'tree' ? 'tree' : 'lab';
  return `${proxyBase(config, cluster.id)}${jupyterPrefix(cluster.id)}/${ui}?token=${issuePass(secret, cluster.id, userId)}`;
}

/** `GET cluster_facing/scheduler/jupyter`: how the scheduler's agent starts Jupyter (404: it does not). */
export async function jupyterSettings(deps: Deps, clusterId: number, backendId: string) {
  const { process, cluster, instance } = await callingInstance(deps.db, clusterId, backendId);
  if (process.role !== 'scheduler' || !wantsJupyter(cluster)) throw notFound('This cluster runs no Jupyter.');
  const backend = await deps.backends.forCluster(cluster);
  return {
    base_url: `${jupyterPrefix(cluster.id)}/`,
    token: jupyterToken(deps.config.secret, cluster.id),
    // The origin its pages run at in browsers (Jupyter refuses calls from others).
    allow_origin: new URL(proxyBase(deps.config, cluster.id)).origin,
    // A cloud backend's firewall opens its port to the control plane; locally any.
    port: portsFor(backend, instance)?.jupyter ?? 0,
  };
}

/** `PATCH cluster_facing/scheduler/jupyter`: the agent says where Jupyter serves, once it does. */
export async function reportJupyter(
  deps: Deps,
  clusterId: number,
  body: { backend_id: string; address: string | null; ui: 'lab' | 'tree' },
) {
  const { process, cluster, instance } = await callingInstance(deps.db, clusterId, body.backend_id);
  if (process.role !== 'scheduler' || !wantsJupyter(cluster)) throw notFound('This cluster runs no Jupyter.');
  await assertServed(deps.backends, cluster, instance, 'jupyter', 'address', body.address);
  await deps.db
    .update(clusters)
    .set({ jupyterAddress: body.address, jupyterUi: body.address ? body.ui : null })
    .where(eq(clusters.id, cluster.id));
  return { ok: true };
}
