/**
 * What the `vm_gcp` backend asks of Compute Engine and Cloud Storage, and the IAM permissions each call needs in the
 * workspace's project (Google's "Required permissions" of each method). The one list setup checks
 * a key against (`projects.testIamPermissions`), so a call added here is a permission checked.
 */
export const GCP_CALL_PERMISSIONS: Record<string, readonly string[]> = {
  // A region's zones, where a launch chooses among.
  'regions.get': ['compute.regions.get'],
  // An instance with a boot disk from an image, in a subnet with an external address, its metadata
  // (the startup script), labels and network tags.
  'instances.insert': [
    'compute.instances.create',
    'compute.disks.create',
    'compute.subnetworks.use',
    'compute.subnetworks.useExternalIp',
    'compute.instances.setMetadata',
    'compute.instances.setLabels',
    'compute.instances.setTags',
  ],
  'zoneOperations.wait': ['compute.zoneOperations.get'],
  'instances.get': ['compute.instances.get'],
  // Finding a workspace's instances by label (also after a restart).
  'instances.aggregatedList': ['compute.instances.list'],
  'instances.delete': ['compute.instances.delete'],
  // A cluster's own firewall: its rules made, found by description, deleted (a rule changes its
  // network's policy), and their global operations waited for.
  'firewalls.insert': ['compute.firewalls.create', 'compute.networks.updatePolicy'],
  'firewalls.list': ['compute.firewalls.list'],
  'firewalls.delete': ['compute.firewalls.delete', 'compute.networks.updatePolicy'],
  'globalOperations.wait': ['compute.globalOperations.get'],
  // Environment archives in the workspace's Cloud Storage bucket (archives.ts): the bucket looked
  // for and made, the build machine's upload by a signed link (signed with the account's key, so
  // its permission), the upload kept under its content hash (exists, rewrite, metadata), the
  // instances' downloads by signed links, and garbage collection's delete.
  'storage.buckets.get': ['storage.buckets.get'],
  'storage.buckets.insert': ['storage.buckets.create'],
  'storage.objects.get': ['storage.objects.get'],
  'storage.objects.rewrite': ['storage.objects.get', 'storage.objects.create'],
  'storage.objects.insert (signed upload)': ['storage.objects.create'],
  'storage.objects.delete': ['storage.objects.delete'],
};

export const GCP_PERMISSIONS: readonly string[] = [...new Set(Object.values(GCP_CALL_PERMISSIONS).flat())];

/**
 * What the server's own account needs (workload identity): Compute Engine's only, since such a
 * workspace's archives stay on this server (no key signs links into a bucket: archives.ts).
 */
export const GCP_SERVER_ACCOUNT_PERMISSIONS: readonly string[] = GCP_PERMISSIONS.filter(
  (p) => !p.startsWith('storage.'),
);

/** Google's answer to a call that failed: its message, and whether trying again may help. */
export class GcpCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/**
 * The permissions of `GCP_PERMISSIONS` the token's account lacks in `project`, asked of Cloud
 * Resource Manager (`POST /v1/projects/{project}:testIamPermissions`: it answers the subset held).
 */
export async function missingPermissions(
  resourceManagerUrl: string,
  accessToken: string,
  project: string,
  wanted: readonly string[] = GCP_PERMISSIONS,
): Promise<string[]> {
  const answer = await fetch(
    `${resourceManagerUrl}/v1/projects/${encodeURIComponent(project)}:testIamPermissions`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ permissions: wanted }),
      signal: AbortSignal.timeout(20_000),
    },
  ).catch((err: unknown) => {
    throw new GcpCallError(`Cloud Resource Manager could not be reached: ${(err as Error).message}`, 0);
  });
  const body = (await answer.json().catch(() => ({}))) as {
    permissions?: string[];
    error?: { message?: string };
  };
  if (!answer.ok) throw new GcpCallError(body.error?.message ?? `HTTP ${answer.status}`, answer.status);
  const held = new Set(body.permissions ?? []);
  return wanted.filter((p) => !held.has(p));
}
