import { expect } from 'vitest';
import type { Api } from './api.js';
import type { GceRig } from './gce-rig/rig.js';

/**
 * A workspace set up on GCP through the API as an admin does it (key, global setup, regions,
 * settings), its Google the rig: its new clusters run on vm_gcp. The first region is the default.
 */
export async function setUpGcpWorkspace(
  api: Api,
  slug: string,
  rig: GceRig,
  options: { regions?: string[]; settings?: Record<string, unknown> } = {},
): Promise<void> {
  const saved = await api.post(`/api/v2/cloud-credentials/${slug}/gcp`, {
    credentials: rig.tokens.createKey('cumulus'),
  });
  expect(saved.status, saved.text).toBe(200);
  const setup = (p: string) => `/api/v2/setup/account/${slug}/gcp/${p}`;
  expect((await api.post(setup('global'), { network: 'default', target_tags: ['dask'] })).status).toBe(200);
  const regions = (options.regions ?? ['us-central1']).map((region) => ({ region }));
  expect((await api.post(setup('regions'), { regions })).status).toBe(200);
  const settings = await api.patch(setup('settings'), {
    worker_instance_types: ['e2-standard-2'],
    scheduler_instance_types: ['e2-standard-2'],
    ...options.settings,
  });
  expect(settings.status, settings.text).toBe(200);
}

/** An instance as Compute Engine's `instances.get` answers it, read from the rig over its REST API. */
export async function getInstance(rig: GceRig, zone: string, name: string): Promise<Record<string, any>> {
  const res = await fetch(`${rig.url}/compute/v1/projects/${rig.project}/zones/${zone}/instances/${name}`, {
    headers: { authorization: `Bearer ${rig.tokens.issue()}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
}
