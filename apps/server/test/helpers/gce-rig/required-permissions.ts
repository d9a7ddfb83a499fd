/**
 * The IAM permissions Compute Engine requires of a call's caller, as Google's reference lists them
 * under each method's "Required permissions": the method's own (`compute.<collection>.<verb>`,
 * `create` for `insert`, `list` for `aggregatedList`, `get` for an operation's `wait`), plus, for
 * `instances.insert`, one for each part of the instance the request sets (a new disk, the subnet
 * or network, an external address, metadata, labels, tags, a service account), and for
 * `firewalls.insert`/`delete`, the network's `updatePolicy`. Written from Google's documentation,
 * not from Cumulus's list (`compute/gcp/permissions.ts`), so a call the backend adds without its
 * permission fails here as it would at Google.
 */
export function requiredPermissions(
  service: string,
  method: string,
  body?: Record<string, unknown>,
): string[] {
  const collection = service[0]!.toLowerCase() + service.slice(1);
  const verb =
    method === 'Insert'
      ? 'create'
      : method === 'AggregatedList'
        ? 'list'
        : method === 'Wait'
          ? 'get'
          : method[0]!.toLowerCase() + method.slice(1);
  const needed = [`compute.${collection}.${verb}`];
  if (service === 'Firewalls' && (method === 'Insert' || method === 'Delete' || method === 'Patch'))
    needed.push('compute.networks.updatePolicy');
  if (service !== 'Instances' || method !== 'Insert' || !body) return needed;
  const disks = (body.disks as { initializeParams?: unknown }[] | undefined) ?? [];
  if (disks.some((d) => d.initializeParams)) needed.push('compute.disks.create');
  const nics =
    (body.networkInterfaces as { subnetwork?: string; accessConfigs?: unknown[] }[] | undefined) ?? [];
  for (const nic of nics) {
    const on = nic.subnetwork ? 'subnetworks' : 'networks';
    needed.push(`compute.${on}.use`);
    if ((nic.accessConfigs ?? []).length > 0) needed.push(`compute.${on}.useExternalIp`);
  }
  const metadata = body.metadata as { items?: unknown[] } | undefined;
  if ((metadata?.items ?? []).length > 0) needed.push('compute.instances.setMetadata');
  if (body.labels && Object.keys(body.labels).length > 0) needed.push('compute.instances.setLabels');
  if (((body.tags as { items?: unknown[] } | undefined)?.items ?? []).length > 0)
    needed.push('compute.instances.setTags');
  if (((body.serviceAccounts as unknown[] | undefined) ?? []).length > 0)
    needed.push('compute.instances.setServiceAccount');
  return [...new Set(needed)];
}
