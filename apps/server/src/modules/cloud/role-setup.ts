import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { assumeRole, awsMessage, callerIdentity } from '../../compute/aws/clients.js';
import { type CloudSetupAttempt, cloudSetupAttempts, type User } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError, fieldError, notFound } from '../../http/errors.js';
import { randomHex, Signer } from '../../lib/crypto.js';
import { isoTime } from '../../lib/time.js';
import { workspaceAccess, workspaceAccessBy } from '../access/workspace.js';
import { awsOptions, presentCredentials, storeCredentials } from './credentials.js';
import type { attemptAnswer, callbackBody, roleInfoBody } from './schemas.js';

/**
 * AWS role assumption: the workspace's account trusts this server's own AWS identity (the
 * principal) to assume a role, with an external id Cumulus chose for the workspace; no key
 * leaves the account. The role is made by hand or by the CloudFormation template Cumulus serves.
 */

const noIdentity = () =>
  new ApiError(409, {
    detail:
      'This server has no AWS identity of its own to assume roles with (give it AWS credentials, or an instance role): use access keys instead.',
    code: 'NO_SERVER_IDENTITY',
  });

/** The ARN a role's trust policy names for this server: its user, or the role behind its session. */
export async function allowedPrincipal(deps: Deps): Promise<string> {
  const who = await callerIdentity(awsOptions(deps), 'us-east-1').catch(() => {
    throw noIdentity();
  });
  const assumed = /^arn:(aws[\w-]*):sts::(\d{12}):assumed-role\/([^/]+)\//.exec(who.arn);
  return assumed ? `arn:${assumed[1]}:iam::${assumed[2]}:role/${assumed[3]}` : who.arn;
}

const roleNameOf = (a: Pick<CloudSetupAttempt, 'workspaceId' | 'id'>) => `cumulus-${a.workspaceId}-${a.id}`;

async function newAttempt(deps: Deps, user: User, workspaceId: number, kind: 'role' | 'cloudformation') {
  const [attempt] = await deps.db
    .insert(cloudSetupAttempts)
    .values({ workspaceId, kind, externalId: randomHex(16), creatorId: user.id })
    .returning();
  return attempt!;
}

/** `start-role-assumption-setup`: the principal to trust and the external id to require. */
export async function startRoleSetup(deps: Deps, user: User, slug: string) {
  const { workspace } = await workspaceAccess(deps.db, user, slug, 'admin');
  const principal = await allowedPrincipal(deps);
  const attempt = await newAttempt(deps, user, workspace.id, 'role');
  return { allowed_principal: principal, external_id: attempt.externalId };
}

/** The workspace's newest attempt, or the one with that external id. */
async function attemptFor(deps: Deps, workspaceId: number, externalId?: string, id?: number) {
  const [attempt] = await deps.db
    .select()
    .from(cloudSetupAttempts)
    .where(
      and(
        eq(cloudSetupAttempts.workspaceId, workspaceId),
        id !== undefined ? eq(cloudSetupAttempts.id, id) : undefined,
        externalId !== undefined ? eq(cloudSetupAttempts.externalId, externalId) : undefined,
      ),
    )
    .orderBy(desc(cloudSetupAttempts.id))
    .limit(1);
  if (!attempt)
    throw fieldError(
      id !== undefined ? 'attempt_id' : 'external_id',
      'No role assumption setup was started for this workspace with that external id.',
    );
  return attempt;
}

/** Assumes the role as this server, with the external id; answers AWS's words when it cannot. */
async function tryRole(deps: Deps, roleArn: string, externalId: string, region: string) {
  try {
    const creds = await assumeRole(awsOptions(deps), region, roleArn, externalId);
    const who = await callerIdentity(awsOptions(deps), region, creds);
    return { ok: true as const, account: who.account, message: `Assumed ${roleArn}.` };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    return {
      ok: false as const,
      account: null,
      message: `AWS refused to let Cumulus assume ${roleArn}: ${awsMessage(err)}`,
    };
  }
}

/** `check-role-assumption`: whether the role can be assumed now. */
export async function checkRole(deps: Deps, user: User, slug: string, body: z.infer<typeof roleInfoBody>) {
  const { workspace } = await workspaceAccess(deps.db, user, slug, 'admin');
  const attempt = await attemptFor(deps, workspace.id, body.external_id);
  return tryRole(deps, body.role_arn, attempt.externalId, body.default_region ?? 'us-east-1');
}

/**
 * `complete-role-assumption-setup` (and the callback): the role is assumed once to check it,
 * then kept as the workspace's AWS credentials (the 409 protocol applies as for keys).
 */
export async function completeRoleSetup(
  deps: Deps,
  user: User,
  slug: string,
  body: z.infer<typeof callbackBody>,
  confirm: boolean,
) {
  const { workspace } = await workspaceAccess(deps.db, user, slug, 'admin');
  const attempt = await attemptFor(deps, workspace.id, body.external_id, body.attempt_id);
  await deps.db
    .update(cloudSetupAttempts)
    .set({ roleArn: body.role_arn, updated: new Date() })
    .where(eq(cloudSetupAttempts.id, attempt.id));
  const region = body.default_region ?? 'us-east-1';
  const tried = await tryRole(deps, body.role_arn, attempt.externalId, region);
  if (!tried.ok) {
    await finish(deps, attempt.id, 'error', tried.message);
    throw fieldError('role_arn', tried.message);
  }
  const row = await storeCredentials(
    deps,
    user,
    workspace.id,
    'aws',
    {
      kind: 'role',
      secret: { kind: 'role', roleArn: body.role_arn, externalId: attempt.externalId },
      summary: { role_arn: body.role_arn, account: tried.account, external_id: attempt.externalId },
      defaultRegion: body.default_region ?? null,
      identity: tried.account,
    },
    confirm,
  );
  await finish(deps, attempt.id, 'complete', '');
  return presentCredentials('aws', row);
}

/** `callback`: a role reported for the workspace that started the attempt (the caller must administer it). */
export async function roleCallback(deps: Deps, user: User, body: z.infer<typeof callbackBody>) {
  const where = body.attempt_id
    ? eq(cloudSetupAttempts.id, body.attempt_id)
    : body.external_id
      ? eq(cloudSetupAttempts.externalId, body.external_id)
      : undefined;
  if (!where) throw fieldError('attempt_id', 'Name the setup attempt (attempt_id or external_id).');
  const [attempt] = await deps.db.select().from(cloudSetupAttempts).where(where).limit(1);
  if (!attempt) throw notFound('No such setup attempt.');
  const { workspace } = await workspaceAccessBy(deps.db, user, { id: attempt.workspaceId }, 'admin');
  return completeRoleSetup(deps, user, workspace.slug, { ...body, attempt_id: attempt.id }, true);
}

async function finish(deps: Deps, id: number, state: 'complete' | 'error', reason: string) {
  await deps.db
    .update(cloudSetupAttempts)
    .set({ state, reason, updated: new Date() })
    .where(eq(cloudSetupAttempts.id, id));
}

const signer = (deps: Deps) => new Signer(deps.config.secret, 'cloudformation-template');
export const templateSignature = (deps: Deps, id: number) => signer(deps).sign(`attempt:${id}`);

/** `cf-setup-attempt`: an attempt whose template (served signed, no sign-in: CloudFormation fetches it) makes the role. */
export async function startCloudFormation(deps: Deps, user: User, slug: string) {
  const { workspace } = await workspaceAccess(deps.db, user, slug, 'admin');
  const principal = await allowedPrincipal(deps);
  const attempt = await newAttempt(deps, user, workspace.id, 'cloudformation');
  return presentAttempt(deps, attempt, principal);
}

export async function getCloudFormation(deps: Deps, user: User, slug: string, id: number) {
  const { workspace } = await workspaceAccess(deps.db, user, slug, 'admin');
  const [attempt] = await deps.db
    .select()
    .from(cloudSetupAttempts)
    .where(and(eq(cloudSetupAttempts.id, id), eq(cloudSetupAttempts.workspaceId, workspace.id)));
  if (!attempt) throw notFound();
  return presentAttempt(deps, attempt, await allowedPrincipal(deps).catch(() => ''));
}

function presentAttempt(deps: Deps, a: CloudSetupAttempt, principal: string): z.infer<typeof attemptAnswer> {
  const templateUrl = `${deps.config.publicUrl}/api/v2/cloud-credentials/cf-template/${a.id}/${templateSignature(deps, a.id)}`;
  const launch = new URL('https://console.aws.amazon.com/cloudformation/home');
  const params = new URLSearchParams({
    templateURL: templateUrl,
    stackName: roleNameOf(a),
    param_ExternalId: a.externalId,
    param_CumulusPrincipal: principal,
    param_RoleName: roleNameOf(a),
  });
  launch.hash = `/stacks/quickcreate?${params}`;
  return {
    id: a.id,
    state: a.state as 'pending' | 'complete' | 'error',
    reason: a.reason,
    external_id: a.externalId,
    allowed_principal: principal,
    role_name: roleNameOf(a),
    role_arn: a.roleArn,
    template_url: templateUrl,
    launch_url: launch.toString(),
    created: isoTime(a.created),
    updated: isoTime(a.updated),
  };
}

/** The CloudFormation template of an attempt (JSON, which CloudFormation reads as well as YAML). */
export async function cloudFormationTemplate(deps: Deps, id: number, signature: string) {
  if (!signer(deps).verify(`attempt:${id}`, signature)) throw notFound();
  const [attempt] = await deps.db.select().from(cloudSetupAttempts).where(eq(cloudSetupAttempts.id, id));
  if (!attempt) throw notFound();
  return roleTemplate(roleNameOf(attempt));
}

/** What the control plane does in the account: EC2 for clusters, and passing the instance role to them. */
export const CONTROL_PLANE_ACTIONS = [
  'ec2:*',
  'iam:GetRole',
  'iam:CreateRole',
  'iam:PutRolePolicy',
  'iam:GetInstanceProfile',
  'iam:CreateInstanceProfile',
  'iam:AddRoleToInstanceProfile',
  'iam:PassRole',
  'sts:GetCallerIdentity',
];

export function roleTemplate(roleName: string) {
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: 'Lets Cumulus run Dask clusters in this account: a role it assumes with an external id.',
    Parameters: {
      CumulusPrincipal: { Type: 'String', Description: 'The AWS identity of the Cumulus server.' },
      ExternalId: { Type: 'String', Description: 'The external id Cumulus chose for your workspace.' },
      RoleName: { Type: 'String', Default: roleName },
    },
    Resources: {
      CumulusRole: {
        Type: 'AWS::IAM::Role',
        Properties: {
          RoleName: { Ref: 'RoleName' },
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: { AWS: { Ref: 'CumulusPrincipal' } },
                Action: 'sts:AssumeRole',
                Condition: { StringEquals: { 'sts:ExternalId': { Ref: 'ExternalId' } } },
              },
            ],
          },
          Policies: [
            {
              PolicyName: 'cumulus-control-plane',
              PolicyDocument: {
                Version: '2012-10-17',
                Statement: [{ Effect: 'Allow', Action: CONTROL_PLANE_ACTIONS, Resource: '*' }],
              },
            },
          ],
        },
      },
    },
    Outputs: { RoleArn: { Value: { 'Fn::GetAtt': ['CumulusRole', 'Arn'] } } },
  };
}
