import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { assumeRole, awsMessage, callerIdentity } from '../../compute/aws/clients.js';
import { type CloudSetupAttempt, cloudSetupAttempts, type User } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError, fieldError, notFound } from '../../http/errors.js';
import { randomHex } from '../../lib/crypto.js';
import type { WorkspaceAccess } from '../identity/index.js';
import { awsOptions, presentCredentials, storeCredentials } from './credentials.js';
import type { callbackBody, roleInfoBody } from './schemas.js';

/**
 * AWS role assumption: the workspace's account trusts this server's own AWS identity (the
 * principal) to assume a role, with an external id Cumulus chose for the workspace; no key
 * leaves the account. The role is made by hand or by the CloudFormation template Cumulus serves
 * (cloudformation.ts).
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

export const roleNameOf = (a: Pick<CloudSetupAttempt, 'workspaceId' | 'id'>) =>
  `cumulus-${a.workspaceId}-${a.id}`;

export async function newAttempt(
  deps: Deps,
  user: User,
  workspaceId: number,
  kind: 'role' | 'cloudformation',
) {
  const [attempt] = await deps.db
    .insert(cloudSetupAttempts)
    .values({ workspaceId, kind, externalId: randomHex(16), creatorId: user.id })
    .returning();
  return attempt!;
}

/** `start-role-assumption-setup`: the principal to trust and the external id to require. */
export async function startRoleSetup(deps: Deps, access: WorkspaceAccess) {
  const { workspace } = access;
  const principal = await allowedPrincipal(deps);
  const attempt = await newAttempt(deps, access.user, workspace.id, 'role');
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
export async function tryRole(deps: Deps, roleArn: string, externalId: string, region: string) {
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
export async function checkRole(deps: Deps, access: WorkspaceAccess, body: z.infer<typeof roleInfoBody>) {
  const { workspace } = access;
  const attempt = await attemptFor(deps, workspace.id, body.external_id);
  return tryRole(deps, body.role_arn, attempt.externalId, body.default_region ?? 'us-east-1');
}

/**
 * Keeps an assumable role as the workspace's AWS credentials: it is assumed once to check it,
 * and replacing credentials while clusters run follows the 409 protocol (guard.ts).
 */
export async function keepRole(
  deps: Deps,
  user: User,
  attempt: CloudSetupAttempt,
  roleArn: string,
  region: string | null,
  confirm: boolean,
) {
  await deps.db
    .update(cloudSetupAttempts)
    .set({ roleArn, updated: new Date() })
    .where(eq(cloudSetupAttempts.id, attempt.id));
  const tried = await tryRole(deps, roleArn, attempt.externalId, region ?? 'us-east-1');
  if (!tried.ok) {
    await finishAttempt(deps, attempt.id, 'error', tried.message);
    throw fieldError('role_arn', tried.message);
  }
  const row = await storeCredentials(
    deps,
    user,
    attempt.workspaceId,
    'aws',
    {
      kind: 'role',
      secret: { kind: 'role', roleArn, externalId: attempt.externalId },
      summary: { role_arn: roleArn, account: tried.account, external_id: attempt.externalId },
      defaultRegion: region,
      identity: tried.account,
    },
    confirm,
  );
  await finishAttempt(deps, attempt.id, 'complete', '');
  return presentCredentials('aws', row);
}

/** `complete-role-assumption-setup`: the role of an attempt (by id or external id), kept. */
export async function completeRoleSetup(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof callbackBody>,
  confirm: boolean,
) {
  const { workspace } = access;
  const attempt = await attemptFor(deps, workspace.id, body.external_id, body.attempt_id);
  return keepRole(deps, access.user, attempt, body.role_arn, body.default_region ?? null, confirm);
}

/** The setup attempt a `callback` reports a role for (by id or external id); its workspace is resolved from it. */
export async function callbackAttempt(
  deps: Deps,
  body: z.infer<typeof callbackBody>,
): Promise<CloudSetupAttempt> {
  const where = body.attempt_id
    ? eq(cloudSetupAttempts.id, body.attempt_id)
    : body.external_id
      ? eq(cloudSetupAttempts.externalId, body.external_id)
      : undefined;
  if (!where) throw fieldError('attempt_id', 'Name the setup attempt (attempt_id or external_id).');
  const [attempt] = await deps.db.select().from(cloudSetupAttempts).where(where).limit(1);
  if (!attempt) throw notFound('No such setup attempt.');
  return attempt;
}

/** `callback`: a role reported for the workspace that started the attempt (the caller administers it: `access`). */
export async function roleCallback(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof callbackBody>,
  confirm: boolean,
) {
  const attempt = await callbackAttempt(deps, body);
  if (attempt.workspaceId !== access.workspace.id) throw notFound('No such setup attempt.');
  return keepRole(deps, access.user, attempt, body.role_arn, body.default_region ?? null, confirm);
}

export async function finishAttempt(deps: Deps, id: number, state: 'complete' | 'error', reason: string) {
  await deps.db
    .update(cloudSetupAttempts)
    .set({ state, reason, updated: new Date() })
    .where(eq(cloudSetupAttempts.id, id));
}
