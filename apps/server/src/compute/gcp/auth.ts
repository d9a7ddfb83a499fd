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

/**
 * An auth client for Google's libraries that gets its tokens by `exchangeKey` (OAuth2Client's
 * refresh handler, called again before each token expires); gtoken, which the library's own JWT
 * client uses, always asks Google's fixed token URL.
 */
export function keyAuthClient(key: ServiceAccountKey, tokenUrl: string): OAuth2Client {
  const client = new googleAuth.OAuth2Client();
  client.refreshHandler = async () => {
    const token = await exchangeKey(key, tokenUrl);
    return { access_token: token.accessToken, expiry_date: token.expiresAt };
  };
  return client;
}
