import { createPublicKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto';

/**
 * Google's OAuth token endpoint for service accounts: a JWT bearer grant (RFC 7523) signed RS256
 * with the account's key, exchanged for an access token. The rig mints keys as the IAM console
 * does (the key file's JSON) and remembers the public half; tokens it gave are what its APIs accept.
 */
export class TokenEndpoint {
  readonly #keys = new Map<string, { email: string; publicPem: string }>();
  readonly tokens = new Map<string, { email: string; expires: number }>();
  /** Exchanges answered, by service account email (what a credentials check did). */
  readonly exchanges: string[] = [];

  constructor(
    readonly project: string,
    readonly tokenUrl: () => string,
  ) {}

  /** A service-account key file, as `gcloud iam service-accounts keys create` writes it. */
  createKey(account = 'cumulus', project = this.project): Record<string, string> {
    const email = `${account}@${project}.iam.gserviceaccount.com`;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyId = randomBytes(20).toString('hex');
    this.#keys.set(keyId, { email, publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string });
    return {
      type: 'service_account',
      project_id: project,
      private_key_id: keyId,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      client_email: email,
      client_id: String(100_000_000_000_000_000_000n + BigInt(this.#keys.size)),
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: this.tokenUrl(),
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
    };
  }

  /** The public halves of the account's keys (what checks a V4 signed URL it signed). */
  publicKeysOf(email: string): string[] {
    return [...this.#keys.values()].filter((k) => k.email === email).map((k) => k.publicPem);
  }

  /** Removes a key (as deleting it in IAM does): its grants are refused from now on. */
  revoke(keyId: string): void {
    this.#keys.delete(keyId);
  }

  /** A token for the rig's own clients (gcloud, the tests), as `gcloud auth print-access-token` gives. */
  issue(email = `tester@${this.project}.iam.gserviceaccount.com`): string {
    const token = `ya29.rig-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { email, expires: Date.now() + 3_600_000 });
    return token;
  }

  valid(token: string | undefined): boolean {
    const found = token ? this.tokens.get(token) : undefined;
    return Boolean(found && found.expires > Date.now());
  }

  /** The answer to `POST /token` (form body): [status, JSON]. */
  exchange(form: URLSearchParams): [number, Record<string, unknown>] {
    const refuse = (description: string) =>
      [400, { error: 'invalid_grant', error_description: description }] as [number, Record<string, unknown>];
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return [
        400,
        {
          error: 'unsupported_grant_type',
          error_description: `Invalid grant_type: ${form.get('grant_type') ?? ''}`,
        },
      ];
    const [head, payload, signature] = (form.get('assertion') ?? '').split('.');
    if (!head || !payload || !signature)
      return refuse('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe');
    const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string; kid?: string };
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const key =
      this.#keys.get(header.kid ?? '') ?? [...this.#keys.values()].find((k) => k.email === claims.iss);
    if (!key || key.email !== claims.iss) return refuse('Invalid JWT Signature.');
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${head}.${payload}`),
      createPublicKey(key.publicPem),
      Buffer.from(signature, 'base64url'),
    );
    if (!signed || header.alg !== 'RS256') return refuse('Invalid JWT Signature.');
    const now = Date.now() / 1000;
    if (
      typeof claims.exp !== 'number' ||
      typeof claims.iat !== 'number' ||
      claims.exp < now ||
      claims.iat > now + 300 ||
      claims.exp - claims.iat > 3600
    )
      return refuse(
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    if (claims.aud !== this.tokenUrl()) return refuse('Invalid JWT: Failed audience check.');
    this.exchanges.push(key.email);
    return [200, { access_token: this.issue(key.email), expires_in: 3599, token_type: 'Bearer' }];
  }
}
