import type { EC2Client } from '@aws-sdk/client-ec2';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { awsCode } from '../../../compute/aws/clients.js';
import { changeAllowedCidr } from '../../../compute/aws/network.js';
import { applyInstancePolicy } from '../../../compute/aws/role-policy.js';
import { cloudSetups } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { fieldError } from '../../../http/errors.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { refreshWorkspaceBackend } from '../workspace-backend.js';
import { aws, cloudError } from './aws.js';
import {
  type AwsGlobal,
  awsClientsOf,
  awsSetupRow,
  bucketAccess,
  DEFAULT_AWS_SETTINGS,
} from './aws-account.js';
import type { AwsSettings, awsSettingsPatch } from './schemas.js';

/** AWS settings of a workspace (instance types, spot, disk, images, allowed CIDR) and what its account has. */

export async function getSettings(deps: Deps, access: WorkspaceAccess): Promise<AwsSettings> {
  const { workspace } = access;
  const row = await awsSetupRow(deps.db, workspace.id);
  const global = row?.global as AwsGlobal | null;
  return {
    ...DEFAULT_AWS_SETTINGS(global?.allowed_cidr ?? '0.0.0.0/32'),
    ...(row?.settings as Partial<AwsSettings>),
  };
}

/**
 * Changes settings; a new allowed CIDR moves the Dask ports of every cluster security group
 * Cumulus made. A machine image for the default region lets the workspace run clusters on AWS.
 */
export async function patchSettings(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof awsSettingsPatch>,
) {
  const { workspace } = access;
  const row = await awsSetupRow(deps.db, workspace.id);
  const global = (row?.global as AwsGlobal | null) ?? null;
  if (body.allowed_cidr && global && body.allowed_cidr !== global.allowed_cidr) {
    const clients = await awsClientsOf(deps, workspace.id);
    for (const [region, g] of Object.entries(global.security_groups))
      await aws(() =>
        changeAllowedCidr(clients.ec2(region), g.group_id, global.allowed_cidr, body.allowed_cidr!),
      );
    global.allowed_cidr = body.allowed_cidr;
  }
  const settings = { ...row?.settings, ...body };
  // The instance role's policy follows the buckets named (once global setup has made the role).
  if (global && (body.s3_read_buckets || body.s3_read_write_buckets)) {
    const clients = await awsClientsOf(deps, workspace.id);
    await aws(() => applyInstancePolicy(clients.iam(), global.instance_profile_name, bucketAccess(settings)));
  }
  await deps.db.transaction(async (tx) => {
    if (row)
      await tx
        .update(cloudSetups)
        .set({
          settings,
          ...(global && { global: global as unknown as Record<string, unknown> }),
          updated: new Date(),
        })
        .where(eq(cloudSetups.id, row.id));
    else await tx.insert(cloudSetups).values({ workspaceId: workspace.id, provider: 'aws', settings });
    await refreshWorkspaceBackend(tx, workspace.id);
  });
  return getSettings(deps, access);
}

/** `available-*`: what the account has in a region, listed with the workspace's credentials. */
export async function available<T>(
  deps: Deps,
  access: WorkspaceAccess,
  region: string,
  list: (ec2: EC2Client) => Promise<T>,
  vpcId?: string,
): Promise<T> {
  const { workspace } = access;
  const ec2 = (await awsClientsOf(deps, workspace.id)).ec2(region);
  try {
    return await list(ec2);
  } catch (err) {
    if (awsCode(err).startsWith('InvalidVpcID'))
      throw fieldError('vpc_id', `There is no VPC ${vpcId} in ${region}.`);
    throw cloudError(err);
  }
}
