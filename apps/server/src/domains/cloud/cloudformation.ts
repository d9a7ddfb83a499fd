import type { Stack } from '@aws-sdk/client-cloudformation';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { awsCode, awsMessage } from '../../compute/aws/clients.js';
import { cloudFormation } from '../../compute/aws/sdk.js';
import { type CloudSetupAttempt, cloudSetupAttempts, type User } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../http/errors.js';
import { Signer } from '../../lib/crypto.js';
import { isoTime } from '../../lib/time.js';
import type { WorkspaceAccess } from '../identity/index.js';
import { awsSecretOf } from './credentials.js';
import { guardClustersInCloud } from './guard.js';
import { allowedPrincipal, finishAttempt, keepRole, newAttempt, roleNameOf, tryRole } from './role-setup.js';
import { roleTemplate } from './role-template.js';
import type { attemptAnswer } from './schemas.js';
import { awsClientsOf, instanceRoleName } from './setup/aws-account.js';

/**
 * CloudFormation setup attempts (`cf-setup-attempt`): the role of role assumption made by a stack
 * of the template Cumulus serves. With the workspace's keys, Cumulus creates the stack itself and
 * follows it by id (DescribeStacks: its status, then the role ARN it outputs, kept as the
 * workspace's credentials). Without keys the user creates it: the template to download and the
 * CloudFormation console's steps, or a quick-create link where the operator published the
 * template in S3 (CloudFormation takes template URLs from S3 only); then the role ARN is given
 * to `complete-role-assumption-setup`.
 */

/** After its stack is made, how long a role AWS will not let Cumulus assume yet is waited for (IAM is eventually consistent). */
const ROLE_PROPAGATION_MS = 2 * 60_000;

const signer = (deps: Deps) => new Signer(deps.config.secret, 'cloudformation-template');
export const templateSignature = (deps: Deps, id: number) => signer(deps).sign(`attempt:${id}`);

const parametersOf = (a: CloudSetupAttempt, principal: string) => ({
  CumulusPrincipal: principal,
  ExternalId: a.externalId,
  RoleName: roleNameOf(a),
  InstanceRoleName: instanceRoleName(a.workspaceId),
});

/** `POST cf-setup-attempt`: with the workspace's keys the stack is made now (after the 409 protocol). */
export async function startCloudFormation(deps: Deps, access: WorkspaceAccess, confirm: boolean) {
  const { workspace } = access;
  const principal = await allowedPrincipal(deps);
  const stored = await awsSecretOf(deps.db, deps.cloudSecrets, workspace.id);
  if (stored?.secret.kind !== 'keys') {
    const attempt = await newAttempt(deps, access.user, workspace.id, 'cloudformation');
    return presentAttempt(deps, attempt, principal, null);
  }
  // The role replaces the keys once the stack is made: running clusters are asked about now.
  await guardClustersInCloud(deps, workspace.id, 'aws', confirm, 'Switching the AWS credentials to a role');
  const attempt = await newAttempt(deps, access.user, workspace.id, 'cloudformation');
  const region = stored.defaultRegion ?? 'us-east-1';
  const clients = await awsClientsOf(deps, workspace.id);
  try {
    const made = await clients.cloudFormation(region).send(
      new cloudFormation.CreateStackCommand({
        StackName: roleNameOf(attempt),
        TemplateBody: JSON.stringify(roleTemplate()),
        Parameters: Object.entries(parametersOf(attempt, principal)).map(
          ([ParameterKey, ParameterValue]) => ({
            ParameterKey,
            ParameterValue,
          }),
        ),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
        Tags: [{ Key: 'cumulus:workspace', Value: workspace.slug }],
      }),
    );
    const [saved] = await deps.db
      .update(cloudSetupAttempts)
      .set({ stackId: made.StackId ?? roleNameOf(attempt), stackRegion: region, updated: new Date() })
      .where(eq(cloudSetupAttempts.id, attempt.id))
      .returning();
    return presentAttempt(deps, saved!, principal, 'CREATE_IN_PROGRESS');
  } catch (err) {
    const message = `AWS refused to create the stack: ${awsMessage(err)}`;
    await finishAttempt(deps, attempt.id, 'error', message);
    throw new ApiError(400, { detail: message, code: 'AWS_ERROR' });
  }
}

/** `GET cf-setup-attempt/{id}`: a stack Cumulus made is looked at, and its role kept once it is there. */
export async function getCloudFormation(deps: Deps, access: WorkspaceAccess, id: number) {
  const { workspace } = access;
  const [attempt] = await deps.db
    .select()
    .from(cloudSetupAttempts)
    .where(and(eq(cloudSetupAttempts.id, id), eq(cloudSetupAttempts.workspaceId, workspace.id)));
  if (!attempt) throw notFound();
  const principal = await allowedPrincipal(deps).catch(() => '');
  if (!attempt.stackId || attempt.state !== 'pending') return presentAttempt(deps, attempt, principal, null);
  const { status, reason } = await followStack(deps, access.user, attempt);
  const [now] = await deps.db
    .update(cloudSetupAttempts)
    .set({ ...(reason !== undefined && { reason }), updated: new Date() })
    .where(eq(cloudSetupAttempts.id, attempt.id))
    .returning();
  return presentAttempt(deps, now!, principal, status);
}

/**
 * One look at a stack Cumulus made: still being made (pending, saying so), made (its role kept:
 * the attempt completes), or failed (the attempt ends in error with CloudFormation's reason).
 */
async function followStack(
  deps: Deps,
  user: User,
  attempt: CloudSetupAttempt,
): Promise<{ status: string | null; reason?: string }> {
  let stack: Stack | undefined;
  try {
    const clients = await awsClientsOf(deps, attempt.workspaceId);
    stack = (
      await clients
        .cloudFormation(attempt.stackRegion ?? 'us-east-1')
        .send(new cloudFormation.DescribeStacksCommand({ StackName: attempt.stackId! }))
    ).Stacks?.[0];
  } catch (err) {
    if (err instanceof ApiError || awsCode(err) === 'ValidationError') {
      const gone =
        err instanceof ApiError
          ? 'The AWS credentials that created the stack are gone: Cumulus cannot follow it.'
          : `The stack is gone: ${awsMessage(err)}`;
      await finishAttempt(deps, attempt.id, 'error', gone);
      return { status: null };
    }
    return { status: null, reason: `Cannot look at the stack now: ${awsMessage(err)}` };
  }
  const status = stack?.StackStatus ?? 'UNKNOWN';
  if (status === 'CREATE_COMPLETE') {
    const roleArn = stack?.Outputs?.find((o) => o.OutputKey === 'RoleArn')?.OutputValue;
    if (!roleArn) {
      await finishAttempt(deps, attempt.id, 'error', 'The stack was made without a RoleArn output.');
      return { status };
    }
    return { status, ...(await keepStackRole(deps, user, attempt, stack!, roleArn)) };
  }
  if (status.endsWith('_IN_PROGRESS') && !status.includes('ROLLBACK'))
    return { status, reason: `CloudFormation is making the stack (${status}).` };
  await finishAttempt(
    deps,
    attempt.id,
    'error',
    `The stack ended ${status}${stack?.StackStatusReason ? `: ${stack.StackStatusReason}` : ''}.`,
  );
  return { status };
}

/** The stack's role kept as the workspace's credentials, once AWS lets this server assume it. */
async function keepStackRole(
  deps: Deps,
  user: User,
  attempt: CloudSetupAttempt,
  stack: Stack,
  roleArn: string,
) {
  const region = attempt.stackRegion;
  const tried = await tryRole(deps, roleArn, attempt.externalId, region ?? 'us-east-1');
  const madeAt = (stack.LastUpdatedTime ?? stack.CreationTime ?? new Date()).getTime();
  if (!tried.ok && Date.now() - madeAt < ROLE_PROPAGATION_MS)
    return { reason: `Waiting for AWS to let Cumulus assume the new role: ${tried.message}` };
  try {
    // The switch was confirmed when the attempt started: clusters running now are stopped first.
    await keepRole(deps, user, attempt, roleArn, region, true);
    return {};
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 409) return { reason: err.message };
    if (err instanceof ApiError) return {};
    throw err;
  }
}

export function presentAttempt(
  deps: Deps,
  a: CloudSetupAttempt,
  principal: string,
  stackStatus: string | null,
): z.infer<typeof attemptAnswer> {
  const parameters = parametersOf(a, principal);
  const region = a.stackRegion ?? 'us-east-1';
  const consoleHome = `https://console.aws.amazon.com/cloudformation/home?region=${region}`;
  const operatorTemplate = deps.config.aws.cfTemplateUrl;
  let launchUrl: string | null = null;
  if (operatorTemplate) {
    const params = new URLSearchParams({ templateURL: operatorTemplate, stackName: roleNameOf(a) });
    for (const [k, v] of Object.entries(parameters)) params.set(`param_${k}`, v);
    launchUrl = `${consoleHome}#/stacks/quickcreate?${params}`;
  }
  return {
    id: a.id,
    state: a.state as 'pending' | 'complete' | 'error',
    reason: a.reason,
    mode: a.stackId ? 'cumulus' : 'console',
    external_id: a.externalId,
    allowed_principal: principal,
    role_name: roleNameOf(a),
    role_arn: a.roleArn,
    stack_name: roleNameOf(a),
    stack_id: a.stackId,
    stack_status: stackStatus,
    parameters,
    template_url: `${deps.config.publicUrl}/api/v2/cloud-credentials/cf-template/${a.id}/${templateSignature(deps, a.id)}`,
    console_url: `${consoleHome}#/stacks/create`,
    launch_url: launchUrl,
    created: isoTime(a.created),
    updated: isoTime(a.updated),
  };
}

/** The CloudFormation template of an attempt (JSON, which CloudFormation reads as well as YAML). */
export async function cloudFormationTemplate(deps: Deps, id: number, signature: string) {
  if (!signer(deps).verify(`attempt:${id}`, signature)) throw notFound();
  const [attempt] = await deps.db.select().from(cloudSetupAttempts).where(eq(cloudSetupAttempts.id, id));
  if (!attempt) throw notFound();
  return roleTemplate();
}
