import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AwsOptions,
  type AwsSecret,
  awsMessage,
  callerIdentity,
  credentialsOf,
} from '../../compute/aws/clients.js';
import { exchangeKey, GcpTokenError, serverAccount, serverToken } from '../../compute/gcp/auth.js';
import {
  GCP_SERVER_ACCOUNT_PERMISSIONS,
  GcpCallError,
  missingPermissions,
} from '../../compute/gcp/permissions.js';
import type { Db } from '../../db/client.js';
import {
  type CloudCredentialRow,
  type CloudProvider,
  cloudCredentials,
  type User,
} from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError, fieldError } from '../../http/errors.js';
import type { SecretBox } from '../../lib/crypto.js';
import { isoTimeOrNull } from '../../lib/time.js';
import { isOperator, type WorkspaceAccess } from '../identity/index.js';
import { checkGcpKey } from './gcp-key.js';
import { guardClustersInCloud } from './guard.js';
import type {
  awsCredentialsBody,
  azureCredentialsBody,
  credentialsAnswer,
  gcpCredentialsBody,
} from './schemas.js';
import { PROVIDER_NAME, refreshWorkspaceBackend } from './workspace-backend.js';

/** Cloud secrets get a key of their own, so nothing sealed for another purpose opens as one. */
export const CLOUD_SECRET_PURPOSE = 'cloud-credentials-v1';

/** `AKIA…WXYZ`: enough to recognise a key, never enough to use it. */
export const maskKeyId = (id: string) => (id.length <= 8 ? '****' : `${id.slice(0, 4)}…${id.slice(-4)}`);

export async function storedCredentials(
  db: Db,
  workspaceId: number,
  provider: CloudProvider,
): Promise<CloudCredentialRow | undefined> {
  const [row] = await db
    .select()
    .from(cloudCredentials)
    .where(and(eq(cloudCredentials.workspaceId, workspaceId), eq(cloudCredentials.provider, provider)));
  return row;
}

/** The AWS secret of a workspace (keys or a role), if it has one. */
export async function awsSecretOf(
  db: Db,
  box: SecretBox,
  workspaceId: number,
): Promise<{ secret: AwsSecret; defaultRegion: string | null } | null> {
  const row = await storedCredentials(db, workspaceId, 'aws');
  if (!row) return null;
  return { secret: JSON.parse(box.decrypt(row.secretBox)) as AwsSecret, defaultRegion: row.defaultRegion };
}

export function presentCredentials(
  provider: CloudProvider,
  row: CloudCredentialRow | undefined,
): z.infer<typeof credentialsAnswer> {
  return {
    provider,
    configured: !!row,
    kind: row?.kind ?? null,
    default_region: row?.defaultRegion ?? null,
    summary: row?.summary ?? {},
    verified_at: isoTimeOrNull(row?.verifiedAt ?? null),
    updated: isoTimeOrNull(row?.updated ?? null),
  };
}

export async function getCredentials(deps: Deps, access: WorkspaceAccess, provider: CloudProvider) {
  const { workspace } = access;
  return presentCredentials(provider, await storedCredentials(deps.db, workspace.id, provider));
}

interface NewCredentials {
  kind: string;
  secret: unknown;
  summary: Record<string, string | null>;
  defaultRegion: string | null;
  /** Who the credentials act as (AWS account, GCP project, Azure subscription). */
  identity: string;
}

/**
 * Stores checked credentials, sealed. Replacing credentials while clusters run there goes through
 * the 409 protocol (guard.ts), even for the same account: new keys with fewer rights could leave
 * the clusters' machines running where Cumulus can no longer stop them.
 */
export async function storeCredentials(
  deps: Deps,
  user: User,
  workspaceId: number,
  provider: CloudProvider,
  given: NewCredentials,
  confirm: boolean,
): Promise<CloudCredentialRow> {
  const box = deps.cloudSecrets;
  const existing = await storedCredentials(deps.db, workspaceId, provider);
  if (existing)
    await guardClustersInCloud(
      deps,
      workspaceId,
      provider,
      confirm,
      `Replacing the ${PROVIDER_NAME[provider]} credentials`,
    );
  const values = {
    kind: given.kind,
    secretBox: box.encrypt(JSON.stringify(given.secret)),
    summary: { ...given.summary, identity: given.identity },
    defaultRegion: given.defaultRegion,
    verifiedAt: new Date(),
    creatorId: user.id,
    updated: new Date(),
  };
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(cloudCredentials)
      .values({ workspaceId, provider, ...values })
      .onConflictDoUpdate({ target: [cloudCredentials.workspaceId, cloudCredentials.provider], set: values })
      .returning();
    await refreshWorkspaceBackend(tx, workspaceId);
    return row!;
  });
}

/** Checks AWS keys with `sts:GetCallerIdentity`; refused keys answer AWS's own words. */
export async function saveAwsCredentials(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof awsCredentialsBody>,
  confirm: boolean,
) {
  const { workspace } = access;
  const c = body.credentials;
  const secret: AwsSecret = {
    kind: 'keys',
    accessKeyId: c.aws_access_key_id,
    secretAccessKey: c.aws_secret_access_key,
    ...(c.aws_session_token && { sessionToken: c.aws_session_token }),
  };
  const region = body.default_region ?? 'us-east-1';
  const who = await callerIdentity(
    awsOptions(deps),
    region,
    credentialsOf(awsOptions(deps), region, secret),
  ).catch((err: unknown) => {
    throw fieldError('credentials', `AWS refused these credentials: ${awsMessage(err)}`);
  });
  const row = await storeCredentials(
    deps,
    access.user,
    workspace.id,
    'aws',
    {
      kind: 'keys',
      secret,
      summary: { aws_access_key_id: maskKeyId(c.aws_access_key_id), account: who.account, arn: who.arn },
      defaultRegion: body.default_region ?? null,
      identity: who.account,
    },
    confirm,
  );
  return presentCredentials('aws', row);
}

/**
 * Checks a GCP service account key's shape and project, then that Google takes it: a token
 * exchange at the server's token endpoint (`CUMULUS_GCP_TOKEN_URL`); refused keys answer Google's
 * words. Then that the account holds what the backend's calls need in the project
 * (`GCP_PERMISSIONS`, asked of `projects.testIamPermissions`): a key that lacks any is refused
 * naming each missing permission.
 */
export async function saveGcpCredentials(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof gcpCredentialsBody>,
  confirm: boolean,
) {
  const { workspace } = access;
  if (body.workload_identity) return saveServerIdentity(deps, access, body, confirm);
  if (!body.credentials)
    throw fieldError(
      'credentials',
      'Give the service account key file (its JSON), or workload_identity: true.',
    );
  const key = checkGcpKey(body.credentials, body.project_id);
  const { accessToken } = await exchangeKey(key, deps.config.gcp.tokenUrl).catch((err: unknown) => {
    if (!(err instanceof GcpTokenError)) throw err;
    throw fieldError('credentials', `Google refused this service account key: ${err.message}`);
  });
  const missing = await missingPermissions(
    deps.config.gcp.resourceManagerUrl,
    accessToken,
    key.project_id,
  ).catch((err: unknown) => {
    if (!(err instanceof GcpCallError)) throw err;
    throw fieldError(
      'credentials',
      `Google did not answer which permissions the key has in project "${key.project_id}": ${err.message}`,
    );
  });
  if (missing.length > 0)
    throw fieldError(
      'credentials',
      `The service account ${key.client_email} lacks ${missing.length === 1 ? 'a permission' : 'permissions'} Cumulus needs in project "${key.project_id}": ${missing.join(', ')}. Grant ${missing.length === 1 ? 'it' : 'them'} and save the key again.`,
    );
  const row = await storeCredentials(
    deps,
    access.user,
    workspace.id,
    'gcp',
    {
      kind: 'service_account',
      secret: { ...body.credentials, type: 'service_account' },
      summary: {
        project_id: key.project_id,
        client_email: key.client_email,
        private_key_id: maskKeyId(key.private_key_id),
      },
      defaultRegion: body.default_region ?? null,
      identity: key.project_id,
    },
    confirm,
  );
  return presentCredentials('gcp', row);
}

/**
 * Workload identity: the workspace's calls to Google go as the service account of the machine the
 * server runs on (its metadata server's tokens), in the project asked (by default the server's
 * own). Only where the operator allows it (CUMULUS_GCP_WORKLOAD_IDENTITY), and only by the
 * operator: anyone else would be spending the server's own Google account. The account's
 * permissions in the project are checked as a key's are. Nothing secret is stored.
 */
async function saveServerIdentity(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof gcpCredentialsBody>,
  confirm: boolean,
) {
  if (body.credentials)
    throw fieldError('credentials', 'Give a service account key or workload_identity, not both.');
  if (!deps.config.gcp.workloadIdentity)
    throw fieldError(
      'workload_identity',
      'This server does not offer its own Google service account (CUMULUS_GCP_WORKLOAD_IDENTITY): give a service account key.',
    );
  if (!(await isOperator(deps.db, access.user)))
    throw new ApiError(403, {
      detail:
        "Only this server's operator can connect the server's own Google service account to a workspace: give a service account key.",
      code: 'OPERATOR_ONLY',
    });
  const urls = deps.config.gcp;
  const refused = (err: unknown): never => {
    if (!(err instanceof GcpTokenError)) throw err;
    throw fieldError('workload_identity', err.message);
  };
  const account = await serverAccount(urls.metadataUrl).catch(refused);
  const { accessToken } = await serverToken(urls.metadataUrl).catch(refused);
  const project = body.project_id ?? account.project;
  const missing = await missingPermissions(
    urls.resourceManagerUrl,
    accessToken,
    project,
    GCP_SERVER_ACCOUNT_PERMISSIONS,
  ).catch((err: unknown) => {
    if (!(err instanceof GcpCallError)) throw err;
    throw fieldError(
      'workload_identity',
      `Google did not answer which permissions ${account.email} has in project "${project}": ${err.message}`,
    );
  });
  if (missing.length > 0)
    throw fieldError(
      'workload_identity',
      `This server's service account ${account.email} lacks ${missing.length === 1 ? 'a permission' : 'permissions'} Cumulus needs in project "${project}": ${missing.join(', ')}. Grant ${missing.length === 1 ? 'it' : 'them'} and connect it again.`,
    );
  const row = await storeCredentials(
    deps,
    access.user,
    access.workspace.id,
    'gcp',
    {
      kind: 'workload_identity',
      secret: { type: 'server', client_email: account.email, project_id: project },
      summary: { project_id: project, client_email: account.email },
      defaultRegion: body.default_region ?? null,
      identity: project,
    },
    confirm,
  );
  return presentCredentials('gcp', row);
}

/** Checks an Azure service principal's shape (the schema holds the rules). */
export async function saveAzureCredentials(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof azureCredentialsBody>,
  confirm: boolean,
) {
  const { workspace } = access;
  const c = body.credentials;
  const row = await storeCredentials(
    deps,
    access.user,
    workspace.id,
    'azure',
    {
      kind: 'service_principal',
      secret: { ...c, subscription_id: body.subscription_id, resource_group_name: body.resource_group_name },
      summary: {
        tenant_id: c.tenant_id,
        client_id: c.client_id,
        subscription_id: body.subscription_id,
        resource_group_name: body.resource_group_name,
      },
      defaultRegion: body.default_region ?? null,
      identity: body.subscription_id,
    },
    confirm,
  );
  return presentCredentials('azure', row);
}

/** Forgets the cloud's credentials (after the 409 protocol while clusters run there). */
export async function deleteCredentials(
  deps: Deps,
  access: WorkspaceAccess,
  provider: CloudProvider,
  confirm: boolean,
) {
  const { workspace } = access;
  const existing = await storedCredentials(deps.db, workspace.id, provider);
  if (!existing) return { deleted: false };
  await guardClustersInCloud(
    deps,
    workspace.id,
    provider,
    confirm,
    `Deleting the ${PROVIDER_NAME[provider]} credentials`,
  );
  await deps.db.transaction(async (tx) => {
    await tx.delete(cloudCredentials).where(eq(cloudCredentials.id, existing.id));
    await refreshWorkspaceBackend(tx, workspace.id);
  });
  return { deleted: true };
}

/** How this server's AWS clients are made (where they call is the SDK's: AWS_ENDPOINT_URL...). */
export const awsOptions = (_deps: Pick<Deps, 'config'>): AwsOptions => ({});
