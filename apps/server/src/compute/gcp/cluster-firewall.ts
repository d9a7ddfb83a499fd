import type { FirewallsClient, GlobalOperationsClient, protos } from '@google-cloud/compute';
import { BackendError, type FirewallSpec } from '../backend.js';
import { classify, failureOf, GceOperationError } from './errors.js';
import type { GcePlacement } from './placement.js';

type Firewall = protos.google.cloud.compute.v1.IFirewall;
type Operation = protos.google.cloud.compute.v1.IOperation;

/**
 * A cluster's own firewall on vm_gcp: VPC firewall rules of the cluster's, in the workspace's
 * network, aimed at a network tag its instances carry (`clusterTag`): one rule per ingress rule of
 * its `firewall_spec` (that rule's TCP ports from its CIDR, exactly), and one opening every port
 * between the cluster's own machines. Made before its first instance; deleted when it stops.
 * Every rule of a cluster has the same description, which finds them again (after a restart, or
 * what a crash left) without remembering anything.
 */
export interface GceFirewallClients {
  firewalls: FirewallsClient;
  globalOperations: GlobalOperationsClient;
}

/** The network tag of a cluster's instances, which its rules target (per workspace: ids repeat across them). */
export const clusterTag = (workspaceId: number, clusterId: number) => `cumulus-w${workspaceId}-c${clusterId}`;
const descriptionOf = (workspaceId: number, clusterId: number) =>
  `The firewall of Cumulus cluster ${clusterId} of workspace ${workspaceId}`;

/** The rules a cluster's firewall is, by name. */
export function clusterRules(
  p: Pick<GcePlacement, 'network'>,
  cluster: { workspaceId: number; clusterId: number; spec: FirewallSpec },
): Firewall[] {
  const tag = clusterTag(cluster.workspaceId, cluster.clusterId);
  const common = {
    description: descriptionOf(cluster.workspaceId, cluster.clusterId),
    network: `global/networks/${p.network}`,
    direction: 'INGRESS',
    priority: 1000,
    targetTags: [tag],
  };
  return [
    ...cluster.spec.ingress.map((rule, i) => ({
      ...common,
      name: `${tag}-${i}`,
      sourceRanges: [rule.cidr],
      allowed: [{ IPProtocol: 'tcp', ports: rule.ports.map(String) }],
    })),
    { ...common, name: `${tag}-internal`, sourceTags: [tag], allowed: [{ IPProtocol: 'all' }] },
  ];
}

/** What a rule opens, to compare one found with one wanted. */
const opens = (f: Firewall) =>
  JSON.stringify([
    f.sourceRanges ?? [],
    f.sourceTags ?? [],
    f.targetTags ?? [],
    (f.allowed ?? []).map((a) => [a.IPProtocol, a.ports ?? []]),
    (f.network ?? '').split('/').pop(),
  ]);

async function finish(c: GceFirewallClients, project: string, op: Operation): Promise<void> {
  let o = op;
  while (o.status !== 'DONE') [o] = await c.globalOperations.wait({ project, operation: o.name! });
  const error = o.error?.errors?.[0];
  if (error) throw new GceOperationError(error.code ?? '', error.message ?? 'the operation failed');
}

/** The cluster's rules in the project, found by their description. */
async function rulesOf(c: GceFirewallClients, p: GcePlacement, workspaceId: number, clusterId: number) {
  const found: Firewall[] = [];
  for await (const rule of c.firewalls.listAsync({
    project: p.project,
    filter: `description = "${descriptionOf(workspaceId, clusterId)}"`,
  }))
    found.push(rule);
  return found;
}

async function remove(c: GceFirewallClients, project: string, name: string): Promise<void> {
  try {
    const [op] = await c.firewalls.delete({ project, firewall: name });
    await finish(c, project, op.latestResponse as Operation);
  } catch (err) {
    if (failureOf(err).code !== 404) throw err;
  }
}

const rethrown = (err: unknown) => (err instanceof BackendError ? err : classify(err));

/**
 * Makes the cluster's rules, keeping those already there as wanted (a launch after a restart finds
 * them), replacing one that opens something else and deleting any the cluster no longer has.
 * Answers the tag its instances carry.
 */
export async function ensureClusterFirewall(
  c: GceFirewallClients,
  p: GcePlacement,
  cluster: { workspaceId: number; clusterId: number; spec: FirewallSpec },
): Promise<string> {
  try {
    const wanted = clusterRules(p, cluster);
    const there = new Map(
      (await rulesOf(c, p, cluster.workspaceId, cluster.clusterId)).map((f) => [f.name ?? '', f]),
    );
    for (const [name, found] of there)
      if (!wanted.some((w) => w.name === name && opens(w) === opens(found))) await remove(c, p.project, name);
    for (const rule of wanted) {
      const found = there.get(rule.name!);
      if (found && opens(found) === opens(rule)) continue;
      try {
        const [op] = await c.firewalls.insert({ project: p.project, firewallResource: rule });
        await finish(c, p.project, op.latestResponse as Operation);
      } catch (err) {
        // Made meanwhile by another launch of the cluster (another replica): that one is the cluster's.
        if (failureOf(err).code !== 409) throw err;
      }
    }
    return clusterTag(cluster.workspaceId, cluster.clusterId);
  } catch (err) {
    throw rethrown(err);
  }
}

/** Deletes every rule of the cluster's firewall (a repeat finds none left). */
export async function deleteClusterFirewall(
  c: GceFirewallClients,
  p: GcePlacement,
  workspaceId: number,
  clusterId: number,
): Promise<void> {
  try {
    for (const rule of await rulesOf(c, p, workspaceId, clusterId)) await remove(c, p.project, rule.name!);
  } catch (err) {
    throw rethrown(err);
  }
}
