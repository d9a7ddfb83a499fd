import { createSign } from 'node:crypto';
import type { OAuth2Client } from 'google-auth-library';
import { googleAuth } from './sdk.js';

/** What of a service account key signs a token request. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id: string;
}

/** Google refused a key (its `error_description`), or its token endpoint could not be reached (`transient`). */
export class GcpTokenError extends Error {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/**
 * Exchanges a service account key for an access token at `tokenUrl` (a JWT bearer grant signed
 * RS256, as Google's libraries do). The URL is the server's setting, never the key's `token_uri`.
 */
export async function exchangeKey(
  key: ServiceAccountKey,
  tokenUrl: string,
): Promise<{ accessToken: string; expiresAt: number }> {
  const now = Math.floor(Date.now() / 1000);
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT', kid: key.private_key_id })}.${encode({
    iss: key.client_email,
    scope: SCOPE,
    aud: tokenUrl,
    iat: now,
    exp: now + 3600,
  })}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(key.private_key, 'base64url');
  const answer = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: `${unsigned}.${signature}`,
    }),
    signal: AbortSignal.timeout(20_000),
  }).catch((err: unknown) => {
    throw new GcpTokenError(`Google's token endpoint could not be reached: ${(err as Error).message}`, true);
  });
  const body = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
  if (!answer.ok || typeof body.access_token !== 'string')
    throw new GcpTokenError(
      String(body.error_description ?? body.error ?? `HTTP ${answer.status}`),
      answer.status >= 500 || answer.status === 429,
    );
  return { accessToken: body.access_token, expiresAt: Date.now() + Number(body.expires_in ?? 3600) * 1000 };
}

/** How a workspace's calls to Google are authorised: its service account key, or the server's own account. */
export type GcpCredential =
  | { kind: 'key'; key: ServiceAccountKey }
  /** Workload identity: the service account of the machine the server runs on, by its metadata server. */
  | { kind: 'server'; email: string };

/** What tells one credential from another (its key, or the server's account): what clients are cached by. */
export const credentialId = (credential: GcpCredential): string =>
  credential.kind === 'key'
    ? `${credential.key.client_email}:${credential.key.private_key_id}`
    : `server:${credential.email}`;

/** A value of the metadata server (`Metadata-Flavor: Google`, as Google's insists), or a GcpTokenError. */
async function metadata(metadataUrl: string, path: string): Promise<string> {
  const answer = await fetch(`${metadataUrl}/computeMetadata/v1/${path}`, {
    headers: { 'metadata-flavor': 'Google' },
    signal: AbortSignal.timeout(10_000),
  }).catch((err: unknown) => {
    throw new GcpTokenError(
      `This server's metadata server (${metadataUrl}) could not be reached: ${(err as Error).message}. Is it running on Google Cloud?`,
      true,
    );
  });
  const text = await answer.text();
  if (!answer.ok)
    throw new GcpTokenError(
      `This server's metadata server answered ${answer.status} for ${path}${answer.status === 404 ? ': the machine has no service account' : ''}`,
      answer.status >= 500,
    );
  return text.trim();
}

/** The server's own service account (its email) and the project the server runs in. */
export async function serverAccount(metadataUrl: string): Promise<{ email: string; project: string }> {
  const [email, project] = await Promise.all([
    metadata(metadataUrl, 'instance/service-accounts/default/email'),
    metadata(metadataUrl, 'project/project-id'),
  ]);
  return { email, project };
}

/** An access token of the server's own service account, from its metadata server. */
export async function serverToken(metadataUrl: string): Promise<{ accessToken: string; expiresAt: number }> {
  const body = JSON.parse(await metadata(metadataUrl, 'instance/service-accounts/default/token')) as {
    access_token?: string;
    expires_in?: number;
  };
  if (typeof body.access_token !== 'string')
    throw new GcpTokenError("This server's metadata server answered no access token");
  return { accessToken: body.access_token, expiresAt: Date.now() + Number(body.expires_in ?? 3600) * 1000 };
}

/** An access token for the credential (a key's exchange, or the server's metadata server). */
export function tokenOf(
  credential: GcpCredential,
  urls: { tokenUrl: string; metadataUrl: string },
): Promise<{ accessToken: string; expiresAt: number }> {
  return credential.kind === 'key'
    ? exchangeKey(credential.key, urls.tokenUrl)
    : serverToken(urls.metadataUrl);
}

/** An auth client for Google's libraries whose tokens come from `tokenOf` (refreshed before they expire). */
export function authClientOf(
  credential: GcpCredential,
  urls: { tokenUrl: string; metadataUrl: string },
): OAuth2Client {
  const client = new googleAuth.OAuth2Client();
  client.refreshHandler = async () => {
    const token = await tokenOf(credential, urls);
    return { access_token: token.accessToken, expiry_date: token.expiresAt };
  };
  return client;
}
