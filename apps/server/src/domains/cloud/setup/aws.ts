import type { EC2Client } from '@aws-sdk/client-ec2';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { awsMessage } from '../../../compute/aws/clients.js';
import {
  changeAllowedCidr,
  defaultVpcId,
  deleteInstanceProfile,
  deleteSecurityGroup,
  ensureInstanceProfile,
  ensureSecurityGroup,
  findImage,
  listSecurityGroups,
  listSubnets,
  listVpcs,
} from '../../../compute/aws/network.js';
import {
  applyInstancePolicy,
  instancePolicy,
  removeInstancePolicy,
} from '../../../compute/aws/role-policy.js';
import { type CloudSetupRegion, cloudSetupRegions, cloudSetups } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError, fieldError, notFound } from '../../../http/errors.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { guardClustersInCloud } from '../guard.js';
import { refreshWorkspaceBackend } from '../workspace-backend.js';
import {
  type AwsClients,
  type AwsGlobal,
  awsClientsOf,
  awsSetupRow,
  bucketAccess,
  instanceRoleName,
  regionRows,
} from './aws-account.js';
import type { AwsSettings, awsGlobalAnswer, awsGlobalBody, awsRegionsBody, regionAnswer } from './schemas.js';

/**
 * AWS setup of a workspace (`setup/account/{ws}/aws/*`): the instance profile and cluster
 * security groups Cumulus makes in the account, the regions (VPC, subnets, security group)
 * clusters run in, and their settings. Every AWS call uses the workspace's own credentials.
 */

export const cloudError = (err: unknown) =>
  err instanceof ApiError
    ? err
    : new ApiError(400, { detail: `AWS said: ${awsMessage(err)}`, code: 'AWS_ERROR' });

export async function aws<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw cloudError(err);
  }
}

const groupName = (slug: string) => `cumulus-${slug}`.slice(0, 255);
const tagsOf = (workspace: { id: number; slug: string }) => ({
  'cumulus:workspace': workspace.slug,
  'cumulus:workspace-id': String(workspace.id),
});

function presentGlobal(global: AwsGlobal | null): z.infer<typeof awsGlobalAnswer> {
  return {
    configured: !!global,
    allowed_cidr: global?.allowed_cidr ?? null,
    instance_profile_name: global?.instance_profile_name ?? null,
    instance_profile_arn: global?.instance_profile_arn ?? null,
    security_groups: global?.security_groups ?? {},
  };
}

export async function getGlobal(deps: Deps, access: WorkspaceAccess) {
  const { workspace } = access;
  const row = await awsSetupRow(deps.db, workspace.id);
  return presentGlobal((row?.global as AwsGlobal | null) ?? null);
}

/**
 * Makes (or finds again) the instance profile and the cluster security group of a region's VPC
 * (the one named, else the region's default one). A new allowed CIDR moves the Dask ports of
 * every cluster security group Cumulus made, in every region.
 */
export async function setUpGlobal(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof awsGlobalBody>,
  callerIp: string,
) {
  const { workspace } = access;
  const clients = await awsClientsOf(deps, workspace.id);
  const existing = await awsSetupRow(deps.db, workspace.id);
  const before = (existing?.global as AwsGlobal | null) ?? null;
  const asked = (existing?.settings as Partial<AwsSettings> | undefined)?.allowed_cidr;
  const allowedCidr =
    body.allowed_cidr ?? before?.allowed_cidr ?? asked ?? `${callerIp.replace(/^::ffff:/, '')}/32`;
  const region = body.region ?? clients.defaultRegion;
  const ec2 = clients.ec2(region);
  const vpcId = await vpcOf(ec2, region, body.vpc_id, 'vpc_id');
  const profile = await aws(() => ensureInstanceProfile(clients.iam(), instanceRoleName(workspace.id)));
  // Buckets named before the role existed get their policy now (no bucket: no IAM call at all).
  const buckets = bucketAccess(existing?.settings as Partial<AwsSettings> | undefined);
  if (instancePolicy(buckets)) await aws(() => applyInstancePolicy(clients.iam(), profile.roleName, buckets));
  const group = await aws(() =>
    ensureSecurityGroup(ec2, {
      vpcId,
      name: groupName(workspace.slug),
      allowedCidr,
      tags: tagsOf(workspace),
    }),
  );
  const groups = { ...before?.security_groups, [region]: { vpc_id: vpcId, group_id: group.groupId } };
  const from = before?.allowed_cidr;
  if (from && from !== allowedCidr)
    for (const [r, g] of Object.entries(groups))
      if (!(r === region && group.created))
        await aws(() => changeAllowedCidr(clients.ec2(r), g.group_id, from, allowedCidr));
  const global: AwsGlobal = {
    allowed_cidr: allowedCidr,
    instance_profile_name: profile.name,
    instance_profile_arn: profile.arn,
    security_groups: groups,
  };
  await saveGlobal(deps, workspace.id, global, { allowed_cidr: allowedCidr });
  return presentGlobal(global);
}

/** The VPC named (checked to be in the region), else the region's default one. */
async function vpcOf(ec2: EC2Client, region: string, named: string | undefined, field: string) {
  if (named) {
    if (!(await aws(() => listVpcs(ec2))).some((v) => v.vpc_id === named))
      throw fieldError(field, `There is no VPC ${named} in ${region}.`);
    return named;
  }
  const found = await aws(() => defaultVpcId(ec2));
  if (!found) throw fieldError(field, `${region} has no default VPC: choose one of its VPCs.`);
  return found;
}

async function saveGlobal(
  deps: Deps,
  workspaceId: number,
  global: AwsGlobal,
  settings: Partial<AwsSettings> = {},
) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(cloudSetups)
      .where(and(eq(cloudSetups.workspaceId, workspaceId), eq(cloudSetups.provider, 'aws')));
    const value = {
      global: global as unknown as Record<string, unknown>,
      settings: { ...row?.settings, ...settings },
    };
    if (row)
      await tx
        .update(cloudSetups)
        .set({ ...value, updated: new Date() })
        .where(eq(cloudSetups.id, row.id));
    else await tx.insert(cloudSetups).values({ workspaceId, provider: 'aws', ...value });
    await refreshWorkspaceBackend(tx, workspaceId);
  });
}

export function presentRegion(
  r: CloudSetupRegion,
  settings: Partial<AwsSettings> = {},
): z.infer<typeof regionAnswer> {
  const n = r.network as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const imageIn = (images: AwsSettings['amis'] | undefined) =>
    r.provider === 'aws' ? (images?.[r.region as keyof AwsSettings['amis']] ?? null) : null;
  const ami = imageIn(settings.amis);
  const armAmi = imageIn(settings.arm_amis);
  return {
    id: r.id,
    provider: r.provider as 'aws' | 'gcp',
    region: r.region,
    default: r.isDefault,
    vpc_id: str(n.vpc_id),
    subnet_ids: Array.isArray(n.subnet_ids) ? (n.subnet_ids as string[]) : [],
    security_group_id: str(n.security_group_id),
    network: str(n.network),
    subnet: str(n.subnet),
    ami_id: ami,
    arm_ami_id: armAmi,
    gpu_ami_id: imageIn(settings.gpu_amis),
    problem:
      r.provider === 'aws' && !ami && !armAmi
        ? `No machine image for ${r.region}: set one in the AWS settings (an AMI with python3 and distributed).`
        : null,
  };
}

export async function getRegions(deps: Deps, access: WorkspaceAccess, provider: 'aws' | 'gcp') {
  const { workspace } = access;
  const settings = (await awsSetupRow(deps.db, workspace.id))?.settings as Partial<AwsSettings> | undefined;
  return {
    regions: (await regionRows(deps.db, workspace.id, provider)).map((r) => presentRegion(r, settings)),
  };
}

/**
 * Adds or updates regions: each gets a VPC (the default one unless named), its subnets (all of
 * the VPC's unless named, each checked to be in it) and a security group (named, else the
 * cluster group Cumulus makes in that VPC).
 */
export async function setRegions(deps: Deps, access: WorkspaceAccess, body: z.infer<typeof awsRegionsBody>) {
  const { workspace } = access;
  const row = await awsSetupRow(deps.db, workspace.id);
  const global = (row?.global as AwsGlobal | null) ?? null;
  if (!global)
    throw new ApiError(409, {
      detail: 'Set up AWS for the workspace first (aws/global).',
      code: 'NO_CLOUD_SETUP',
    });
  const clients = await awsClientsOf(deps, workspace.id);
  const settings = (row?.settings ?? {}) as Partial<AwsSettings>;
  const amis: AwsSettings['amis'] = { ...settings.amis };
  const armAmis: AwsSettings['arm_amis'] = { ...settings.arm_amis };
  const chosen: { region: string; network: Record<string, unknown>; isDefault: boolean }[] = [];
  for (const [i, r] of body.regions.entries()) {
    const ec2 = clients.ec2(r.region);
    const vpcId = await vpcOf(ec2, r.region, r.vpc_id, `regions.${i}.vpc_id`);
    const subnets = await aws(() => listSubnets(ec2, vpcId));
    const known = new Set(subnets.map((s) => s.subnet_id));
    const wrong = (r.subnet_ids ?? []).find((s) => !known.has(s));
    if (wrong) throw fieldError(`regions.${i}.subnet_ids`, `Subnet ${wrong} is not in ${vpcId}.`);
    const subnetIds = r.subnet_ids?.length ? r.subnet_ids : [...known];
    if (subnetIds.length === 0) throw fieldError(`regions.${i}.vpc_id`, `${vpcId} has no subnets.`);
    let groupId = r.security_group_id;
    if (groupId) {
      const groups = await aws(() => listSecurityGroups(ec2, vpcId));
      if (!groups.some((g) => g.group_id === groupId))
        throw fieldError(`regions.${i}.security_group_id`, `Security group ${groupId} is not in ${vpcId}.`);
    } else {
      const made = global.security_groups[r.region];
      groupId =
        made?.vpc_id === vpcId
          ? made.group_id
          : (
              await aws(() =>
                ensureSecurityGroup(ec2, {
                  vpcId,
                  name: groupName(workspace.slug),
                  allowedCidr: global.allowed_cidr,
                  tags: tagsOf(workspace),
                }),
              )
            ).groupId;
      global.security_groups[r.region] = { vpc_id: vpcId, group_id: groupId };
    }
    // A region clusters can launch in has a machine image: the one set, else one found by name
    // (x86_64 first, else of any architecture); arm64 types get the arm64 one found by its name.
    const { amiName, amiNameArm64, amiOwner } = deps.config.aws;
    if (!amis[r.region]) {
      const found = await aws(
        async () =>
          (await findImage(ec2, amiName, amiOwner, 'x86_64')) ?? (await findImage(ec2, amiName, amiOwner)),
      );
      if (found) amis[r.region] = found;
    }
    if (!armAmis[r.region]) {
      const found = await aws(() => findImage(ec2, amiNameArm64, amiOwner, 'arm64'));
      if (found) armAmis[r.region] = found;
    }
    chosen.push({
      region: r.region,
      network: { vpc_id: vpcId, subnet_ids: subnetIds, security_group_id: groupId },
      isDefault: r.default ?? false,
    });
  }
  await deps.db.transaction(async (tx) => {
    const existing = await regionRows(tx, workspace.id, 'aws');
    const newDefault =
      chosen.find((c) => c.isDefault)?.region ??
      existing.find((e) => e.isDefault)?.region ??
      chosen[0]!.region;
    for (const c of chosen)
      await tx
        .insert(cloudSetupRegions)
        .values({ workspaceId: workspace.id, provider: 'aws', region: c.region, network: c.network })
        .onConflictDoUpdate({
          target: [cloudSetupRegions.workspaceId, cloudSetupRegions.provider, cloudSetupRegions.region],
          set: { network: c.network },
        });
    for (const r of await regionRows(tx, workspace.id, 'aws'))
      await tx
        .update(cloudSetupRegions)
        .set({ isDefault: r.region === newDefault })
        .where(eq(cloudSetupRegions.id, r.id));
    await tx
      .update(cloudSetups)
      .set({
        global: global as unknown as Record<string, unknown>,
        settings: { ...settings, amis, arm_amis: armAmis },
        updated: new Date(),
      })
      .where(eq(cloudSetups.id, row!.id));
    await refreshWorkspaceBackend(tx, workspace.id);
  });
  return getRegions(deps, access, 'aws');
}

/** Removes a region; removing the last one while clusters run there follows the 409 protocol. */
export async function deleteRegion(
  deps: Deps,
  access: WorkspaceAccess,
  provider: 'aws' | 'gcp',
  id: number,
  confirm: boolean,
) {
  const { workspace } = access;
  const rows = await regionRows(deps.db, workspace.id, provider);
  const target = rows.find((r) => r.id === id);
  if (!target) throw notFound();
  if (rows.length === 1)
    await guardClustersInCloud(
      deps,
      workspace.id,
      provider,
      confirm,
      `Removing the last ${provider.toUpperCase()} region`,
    );
  await deps.db.transaction(async (tx) => {
    await tx.delete(cloudSetupRegions).where(eq(cloudSetupRegions.id, id));
    const left = rows.filter((r) => r.id !== id);
    if (target.isDefault && left[0])
      await tx.update(cloudSetupRegions).set({ isDefault: true }).where(eq(cloudSetupRegions.id, left[0].id));
    await refreshWorkspaceBackend(tx, workspace.id);
  });
  return { deleted: true };
}

/**
 * Undoes the AWS setup: what Cumulus made in the account goes, then its records. When AWS refuses
 * to remove something, nothing is forgotten and the refusal is answered (fix it, then try again);
 * without credentials the records go and the answer names what stays in the account.
 */
export async function deleteAwsSetup(deps: Deps, access: WorkspaceAccess, confirm: boolean) {
  const { workspace } = access;
  const row = await awsSetupRow(deps.db, workspace.id);
  if (!row) return { deleted: false, left_in_account: [] };
  await guardClustersInCloud(deps, workspace.id, 'aws', confirm, 'Removing the AWS setup');
  const global = row.global as AwsGlobal | null;
  const made = global
    ? [
        ...Object.entries(global.security_groups).map(([region, g]) => ({
          what: `security group ${g.group_id} in ${region}`,
          remove: (c: AwsClients) => deleteSecurityGroup(c.ec2(region), g.group_id),
        })),
        {
          what: `instance profile and role ${global.instance_profile_name}`,
          remove: async (c: AwsClients) => {
            if (instancePolicy(bucketAccess(row.settings as Partial<AwsSettings>)))
              await removeInstancePolicy(c.iam(), global.instance_profile_name);
            await deleteInstanceProfile(c.iam(), global.instance_profile_name);
          },
        },
      ]
    : [];
  const clients = made.length ? await awsClientsOf(deps, workspace.id).catch(() => null) : null;
  const refused: string[] = [];
  if (clients)
    for (const m of made)
      await m.remove(clients).catch((err: unknown) => refused.push(`${m.what}: ${awsMessage(err)}`));
  if (refused.length)
    throw new ApiError(400, {
      detail: `AWS refused to remove what Cumulus made in the account (${refused.join('; ')}). Nothing was forgotten: fix the permissions and try again.`,
      code: 'AWS_ERROR',
    });
  await deps.db.transaction(async (tx) => {
    await tx
      .delete(cloudSetupRegions)
      .where(and(eq(cloudSetupRegions.workspaceId, workspace.id), eq(cloudSetupRegions.provider, 'aws')));
    await tx.delete(cloudSetups).where(eq(cloudSetups.id, row.id));
    await refreshWorkspaceBackend(tx, workspace.id);
  });
  return { deleted: true, left_in_account: clients ? [] : made.map((m) => m.what) };
}
