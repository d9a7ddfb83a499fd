import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

/**
 * A real OpenID provider (the `oidc-provider` package) on a local port, standing in for Okta,
 * Entra ID or Google. Sign-in needs no form: whoever `nextAccount` is signs in and consents.
 * `tamper` rewrites the claims of the next ID tokens it issues (re-signed with the provider's own
 * key), so tests can hand Cumulus a well-signed token with a wrong audience, issuer, nonce or expiry.
 */
export class TestOidcProvider {
  issuer = '';
  nextAccount: TestAccount = { sub: 'nobody', email: 'nobody@example.com', email_verified: true };
  tamper: ((claims: JWTPayload) => JWTPayload) | null = null;
  readonly #accounts = new Map<string, TestAccount>();
  #server: Server | null = null;

  constructor(
    readonly client: { clientId: string; clientSecret: string; redirectUris: string[] },
    /** `hostname`: the issuer names the provider so (it listens on 127.0.0.1), for a name to resolve. */
    readonly options: { port?: number; issuer?: string; hostname?: string } = {},
  ) {}

  async start(): Promise<string> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    let handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void =
      () => {};
    this.#server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => this.#server!.listen(this.options.port ?? 0, '127.0.0.1', resolve));
    const port = (this.#server.address() as AddressInfo).port;
    this.issuer = this.options.issuer ?? `http://${this.options.hostname ?? '127.0.0.1'}:${port}`;
    const accounts = this.#accounts;
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: this.client.clientId,
          client_secret: this.client.clientSecret,
          redirect_uris: this.client.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      findAccount: async (_ctx, id) => ({
        accountId: id,
        claims: async () => ({ ...(accounts.get(id) ?? { sub: id }) }),
      }),
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
      },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      pkce: { required: () => true },
    });
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path === '/token' && this.tamper && body?.id_token) {
        const claims = this.tamper({ ...decodeJwt(body.id_token) });
        body.id_token = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
          .sign(privateKey);
      }
    });
    const callback = provider.callback();
    handler = (req, res) => {
      if (req.url?.startsWith('/interaction/')) {
        this.#finishInteraction(provider, req, res).catch((err) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      } else callback(req, res);
    };
    return this.issuer;
  }

  async #finishInteraction(
    provider: Provider,
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) {
    const details = await provider.interactionDetails(req, res);
    const account = this.nextAccount;
    this.#accounts.set(account.sub, account);
    const grant = new provider.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    this.#server?.closeAllConnections();
  }
}

/**
 * Follows a browser's redirects from a provider's authorization URL (keeping its cookies) until
 * the provider sends it back to `callbackPrefix`; returns that address with code and state.
 */
export async function followToCallback(start: string, callbackPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(callbackPrefix)) return new URL(url);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`No redirect from ${url}: ${res.status} ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error(`Too many redirects from ${start}`);
}
