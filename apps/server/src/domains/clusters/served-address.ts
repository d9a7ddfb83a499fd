import { isIP } from 'node:net';
import { type Backends, portsFor } from '../../compute/backend.js';
import type { Cluster, Instance } from '../../db/schema/index.js';
import { fieldError } from '../../http/errors.js';

/** What a scheduler instance serves over HTTP for the proxy: Dask's dashboard, a notebook's Jupyter. */
export type Served = 'dashboard' | 'jupyter';

type ClusterRef = Pick<Cluster, 'backendType' | 'workspaceId'>;
type InstanceRef = Pick<Instance, 'backendId' | 'backendData' | 'privateIpAddress' | 'publicIpAddress'>;

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Why the proxy may not go to `address` for a cluster's dashboard or Jupyter, or null where it
 * may: only to the scheduler instance's own address (as recorded for it: a cloud's, or what its
 * agent first said on this machine) and to the port it serves that on (a backend's fixed port, or
 * one the backend sees a process of that instance listen on). An address an agent reports is
 * checked once at the report, and again before the proxy connects, so that neither a cluster's
 * token nor a row written otherwise sends the proxy elsewhere (SSRF).
 */
export async function whyNotServed(
  backends: Backends,
  cluster: ClusterRef,
  instance: InstanceRef | null | undefined,
  served: Served,
  address: string,
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'Not an address: http://<the instance address>:<port>.';
  }
  if (
    url.protocol !== 'http:' ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  )
    return 'An origin on the scheduler instance (http://<its address>:<port>), with no path.';
  const host = bare(url.hostname);
  const own = [instance?.privateIpAddress, instance?.publicIpAddress].flatMap((a) => (a ? [bare(a)] : []));
  if (!instance || own.length === 0) return 'The scheduler instance has no recorded address yet.';
  if (!isIP(host) || !own.includes(host))
    return `${url.hostname} is not the scheduler instance's address (${own.join(' or ')}).`;
  const port = Number(url.port || 80);
  const backend = await backends.forCluster(cluster);
  const ports = portsFor(backend, instance);
  if (ports) {
    const expected = ports[served];
    return port === expected
      ? null
      : `Port ${port} is not where this backend serves the ${served} (${expected ?? 'none'}).`;
  }
  if (!backend.listensOn) return `The ${backend.type} backend cannot say where the ${served} is served.`;
  const listening = await backend.listensOn(instance, { host, port });
  return listening ? null : `No process of the scheduler instance listens on ${url.host}.`;
}

/** At an agent's report: the address, or a 400 naming the field. */
export async function assertServed(
  backends: Backends,
  cluster: ClusterRef,
  instance: InstanceRef,
  served: Served,
  field: string,
  address: string | null | undefined,
): Promise<void> {
  if (!address) return;
  const problem = await whyNotServed(backends, cluster, instance, served, address);
  if (problem) throw fieldError(field, problem);
}
