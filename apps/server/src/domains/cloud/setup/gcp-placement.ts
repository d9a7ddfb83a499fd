import { and, eq } from 'drizzle-orm';
import type { GcpCredential, ServiceAccountKey } from '../../../compute/gcp/auth.js';
import type { GcePlacement } from '../../../compute/gcp/placement.js';
import type { Db } from '../../../db/client.js';
import { cloudSetups } from '../../../db/schema/index.js';
import type { SecretBox } from '../../../lib/crypto.js';
import { storedCredentials } from '../credentials.js';
import { regionRows } from './aws-account.js';
import { DEFAULT_GCP_SETTINGS } from './gcp.js';

/**
 * The workspace's GCP placement in one of its set-up regions (else its default one): its credential,
 * project, network and settings; null until it has credentials, a global setup and a region.
 */
export async function gcpPlacementOf(
  db: Db,
  box: SecretBox,
  workspaceId: number,
  regionName?: string,
): Promise<GcePlacement | null> {
  const [credentials, [setup], regions] = await Promise.all([
    storedCredentials(db, workspaceId, 'gcp'),
    db
      .select()
      .from(cloudSetups)
      .where(and(eq(cloudSetups.workspaceId, workspaceId), eq(cloudSetups.provider, 'gcp'))),
    regionRows(db, workspaceId, 'gcp'),
  ]);
  const region = regionName
    ? regions.find((r) => r.region === regionName)
    : (regions.find((r) => r.isDefault) ?? regions[0]);
  if (!credentials || !setup?.global || !region) return null;
  // A key file, or (workload identity) the server's own account: `{type: 'server', client_email, project_id}`.
  const secret = JSON.parse(box.decrypt(credentials.secretBox)) as ServiceAccountKey & {
    project_id: string;
    type: string;
  };
  const credential: GcpCredential =
    secret.type === 'server' ? { kind: 'server', email: secret.client_email } : { kind: 'key', key: secret };
  const global = setup.global as { network: string; target_tags?: string[] };
  const network = region.network as { network?: string; subnet?: string };
  return {
    credential,
    project: secret.project_id,
    region: region.region,
    network: network.network ?? global.network,
    subnet: network.subnet ?? global.network,
    targetTags: global.target_tags ?? [],
    settings: { ...DEFAULT_GCP_SETTINGS, ...(setup.settings as Partial<GcePlacement['settings']>) },
  };
}
