import type { EC2ClientConfig } from '@aws-sdk/client-ec2';
import { cloudFormation, ec2, iam, sts } from './sdk.js';

/**
 * What a workspace's calls to AWS are made with: its keys, or a role Cumulus assumes with its own
 * identity (the SDK's default chain: environment, instance profile...) and the workspace's
 * external id.
 */
export type AwsSecret =
  | { kind: 'keys'; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { kind: 'role'; roleArn: string; externalId: string };

/**
 * How Cumulus makes its AWS clients. Where calls go is the SDK's own business: it reads
 * `AWS_ENDPOINT_URL`, `AWS_ENDPOINT_URL_<SERVICE>` (which wins for its service) and
 * `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` from the environment itself (tests: moto_server), which an
 * explicit `endpoint` here would override.
 */
export interface AwsOptions {
  /** Attempts per call (the SDK retries throttling and 5xx); tests and loops may want fewer. */
  maxAttempts?: number;
}

const common = (options: AwsOptions, region: string) => ({
  region,
  maxAttempts: options.maxAttempts ?? 3,
  // The SDK waits forever for an answer by default: a call that hangs would hold a reconcile pass.
  requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000 },
});

export const ec2Client = (o: AwsOptions, region: string, credentials: Creds) =>
  new ec2.EC2Client({ ...common(o, region), credentials });
export const iamClient = (o: AwsOptions, credentials: Creds) =>
  new iam.IAMClient({ ...common(o, 'us-east-1'), credentials });
export const stsClient = (o: AwsOptions, region: string, credentials?: Creds) =>
  new sts.STSClient({ ...common(o, region), ...(credentials && { credentials }) });
export const cloudFormationClient = (o: AwsOptions, region: string, credentials: Creds) =>
  new cloudFormation.CloudFormationClient({ ...common(o, region), credentials });

/** Credentials as the SDK takes them: a value or a function that answers one. */
export type Creds = NonNullable<EC2ClientConfig['credentials']>;
export interface AwsCredentialIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** Who a set of credentials is (`sts:GetCallerIdentity`); throws the cloud's own error otherwise. */
export async function callerIdentity(o: AwsOptions, region: string, credentials?: Creds) {
  const answer = await stsClient(o, region, credentials).send(new sts.GetCallerIdentityCommand({}));
  return { account: answer.Account ?? '', arn: answer.Arn ?? '', userId: answer.UserId ?? '' };
}

/** Temporary credentials of the role, assumed with this server's own identity and the external id. */
export async function assumeRole(
  o: AwsOptions,
  region: string,
  roleArn: string,
  externalId: string,
): Promise<AwsCredentialIdentity> {
  const answer = await stsClient(o, region).send(
    new sts.AssumeRoleCommand({
      RoleArn: roleArn,
      ExternalId: externalId,
      RoleSessionName: 'cumulus-control-plane',
      DurationSeconds: 3600,
    }),
  );
  const c = answer.Credentials;
  if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error('AssumeRole answered no credentials');
  return {
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.SecretAccessKey,
    sessionToken: c.SessionToken,
    expiration: c.Expiration,
  };
}

/** Credentials for the SDK from a stored secret: keys as they are, a role assumed (and renewed) as needed. */
export function credentialsOf(o: AwsOptions, region: string, secret: AwsSecret): Creds {
  if (secret.kind === 'keys')
    return {
      accessKeyId: secret.accessKeyId,
      secretAccessKey: secret.secretAccessKey,
      ...(secret.sessionToken && { sessionToken: secret.sessionToken }),
    };
  let current: Promise<AwsCredentialIdentity> | null = null;
  return async () => {
    const held = current && (await current.catch(() => null));
    // Renewed five minutes before it expires.
    if (held && (!held.expiration || held.expiration.getTime() - Date.now() > 5 * 60_000)) return held;
    current = assumeRole(o, region, secret.roleArn, secret.externalId);
    return current;
  };
}

/** The words AWS said, with its error code: what a user reads when a call fails. */
export function awsMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { Code?: string }).Code ?? err.name;
  const message = err.message && err.message !== 'UnknownError' ? err.message : code;
  return code && !message.startsWith(code) && code !== 'Error' ? `${code}: ${message}` : message;
}

/** The error code AWS answered (`InsufficientInstanceCapacity`...), or ''. */
export const awsCode = (err: unknown): string =>
  err instanceof Error ? ((err as { Code?: string }).Code ?? err.name ?? '') : '';
