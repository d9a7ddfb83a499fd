import * as client from 'openid-client';
import type { Config, OidcProviderConfig, SignInConfig } from '../../../config.js';
import { ApiError } from '../../../http/errors.js';
import { parseEmail } from '../auth/rules.js';
import type { Flow, ProviderId } from './cookies.js';
import { connectionFetch, IssuerRefused } from './issuer-guard.js';
import { SIGN_IN_MESSAGES as M, refusal } from './messages.js';

/** Who a provider says signed in. */
export interface ProviderIdentity {
  provider: ProviderId;
  /** The OpenID issuer, or the GitHub server's address. */
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  fullName: string;
  /** What to derive a new user's username from (the provider's username, else the email's name). */
  usernameHint: string;
}

export interface SignInProvider {
  id: ProviderId;
  name: string;
  /** Where the browser goes to sign in, carrying the flow's state, nonce and PKCE challenge. */
  authorizeUrl(flow: Flow): Promise<string>;
  /** Exchanges the code (with the flow's PKCE verifier) and checks the answer; throws a refusal. */
  finish(flow: Flow, answer: CallbackAnswer): Promise<ProviderIdentity>;
}

/** What the provider sent back to the console's callback page (`iss`: RFC 9207, where supported). */
export interface CallbackAnswer {
  code: string;
  state: string;
  iss?: string | undefined;
}

/** The console page each provider sends the browser back to. */
export const callbackUrl = (config: Config, id: ProviderId) => `${config.publicUrl}/auth/${id}/callback`;

/** The providers this server has configured, in the order the login page shows them. */
export function configuredProviders(config: Config): SignInProvider[] {
  const { signIn } = config;
  const list: SignInProvider[] = [];
  if (signIn.google) list.push(new OidcProvider('google', signIn.google, callbackUrl(config, 'google')));
  if (signIn.github) list.push(new GitHubProvider(signIn.github, callbackUrl(config, 'github')));
  if (signIn.sso) list.push(new OidcProvider('sso', signIn.sso, callbackUrl(config, 'sso')));
  return list;
}

const discoveries = new Map<string, Promise<client.Configuration>>();

/**
 * An organization's own connection: its requests go through connectionFetch (public https
 * addresses only), but to the origin of an issuer the operator allowed (`allowedOrigin`).
 */
export interface ConnectionGuard {
  allowedOrigin: string | null;
}

/** OpenID Connect (SSO, Google) with openid-client: discovery, PKCE, state and nonce, ID token checks. */
export class OidcProvider implements SignInProvider {
  readonly name: string;

  constructor(
    readonly id: ProviderId,
    private readonly settings: OidcProviderConfig,
    private readonly redirectUri: string,
    private readonly guard: ConnectionGuard | null = null,
  ) {
    this.name = settings.name;
  }

  private discover(): Promise<client.Configuration> {
    // The secret is part of the key: an organization admin who changes it gets a fresh configuration.
    const guard = this.guard ? `guarded:${this.guard.allowedOrigin ?? ''}` : 'configured';
    const key = `${guard} ${this.settings.issuer} ${this.settings.clientId} ${this.settings.clientSecret}`;
    let found = discoveries.get(key);
    if (!found) {
      const insecure = this.settings.issuer.startsWith('http:');
      found = client.discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        this.settings.clientSecret,
        undefined,
        {
          // Plain http only for an issuer configured so (a provider on this machine, in tests);
          // an organization's connection refuses it unless the operator allowed the issuer.
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
          ...(this.guard ? { [client.customFetch]: connectionFetch(this.guard.allowedOrigin) } : {}),
          timeout: 10,
        },
      );
      // A failed discovery is tried again at the next sign-in.
      found.catch(() => discoveries.delete(key));
      discoveries.set(key, found);
    }
    return found.catch((err: unknown) => {
      throw this.refusedBy(err) ?? unreachable(this.name);
    });
  }

  /** The refusal of a request the issuer rule stopped (issuer-guard.ts), if that is what failed. */
  private refusedBy(err: unknown): ApiError | null {
    for (let cause = err; cause instanceof Error; cause = cause.cause) {
      if (cause instanceof IssuerRefused) {
        const message = M.issuerRefused(this.name, cause.reason);
        return new ApiError(502, {
          non_field_errors: [message],
          detail: message,
          code: 'SIGN_IN_ISSUER_REFUSED',
        });
      }
    }
    return null;
  }

  async authorizeUrl(flow: Flow): Promise<string> {
    const configuration = await this.discover();
    return client
      .buildAuthorizationUrl(configuration, {
        redirect_uri: this.redirectUri,
        scope: 'openid email profile',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  async finish(flow: Flow, answer: CallbackAnswer): Promise<ProviderIdentity> {
    const configuration = await this.discover();
    const current = new URL(this.redirectUri);
    current.searchParams.set('code', answer.code);
    current.searchParams.set('state', answer.state);
    // Providers that name themselves in the answer (RFC 9207) are checked against the issuer.
    if (answer.iss) current.searchParams.set('iss', answer.iss);
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      // Providers that keep the profile out of the ID token give it at the userinfo endpoint.
      if (typeof claims.email !== 'string') {
        const info = await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub));
        claims = { ...info, ...claims };
      }
    } catch (err) {
      throw this.refusalOf(err);
    }
    const email = typeof claims.email === 'string' ? strictAddress(this.name, claims.email) : null;
    // Google says whether it verified the address. Enterprise providers (Entra ID) often say
    // nothing: the organization that runs them vouches for its own addresses, unless it says false.
    const verified = this.id === 'google' ? claims.email_verified === true : claims.email_verified !== false;
    const name = typeof claims.name === 'string' ? claims.name : '';
    const hint = typeof claims.preferred_username === 'string' ? claims.preferred_username : (email ?? '');
    return {
      provider: this.id,
      issuer: this.settings.issuer,
      subject: String(claims.sub),
      email,
      emailVerified: verified,
      fullName: name,
      usernameHint: hint,
    };
  }

  private refusalOf(err: unknown): Error {
    const refused = this.refusedBy(err);
    if (refused) return refused;
    if (err instanceof client.ResponseBodyError) {
      return refusal(M.codeRefused(this.name), 'SIGN_IN_CODE_REFUSED');
    }
    if (err instanceof client.AuthorizationResponseError) {
      return refusal(M.codeRefused(this.name), 'SIGN_IN_CODE_REFUSED');
    }
    const code = (err as { code?: unknown })?.code;
    if (typeof code === 'string' && code.startsWith('OAUTH_') && code !== 'OAUTH_HTTP_REQUEST_FORBIDDEN') {
      const cause = (err as Error).cause;
      const reason = (cause instanceof Error ? cause.message : (err as Error).message).replace(/\.$/, '');
      return refusal(M.tokenInvalid(this.name, reason), 'SIGN_IN_TOKEN_INVALID');
    }
    return unreachable(this.name);
  }
}

/** GitHub's OAuth web flow (with PKCE) and REST API; GitHub Enterprise Server at other URLs. */
class GitHubProvider implements SignInProvider {
  readonly id = 'github' as const;
  readonly name: string;

  constructor(
    private readonly settings: NonNullable<SignInConfig['github']>,
    private readonly redirectUri: string,
  ) {
    this.name = settings.name;
  }

  async authorizeUrl(flow: Flow): Promise<string> {
    const url = new URL(`${this.settings.url}/login/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      redirect_uri: this.redirectUri,
      scope: 'read:user user:email',
      state: flow.state,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      allow_signup: 'true',
    }).toString();
    return url.toString();
  }

  async finish(flow: Flow, { code }: CallbackAnswer): Promise<ProviderIdentity> {
    const token = await this.call<{ access_token?: string; error?: string }>(
      `${this.settings.url}/login/oauth/access_token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: this.settings.clientId,
          client_secret: this.settings.clientSecret,
          code,
          redirect_uri: this.redirectUri,
          code_verifier: flow.verifier,
        }).toString(),
      },
    );
    // GitHub answers a refused code with 200 and an `error` field.
    if (!token.access_token) throw refusal(M.codeRefused(this.name), 'SIGN_IN_CODE_REFUSED');
    const auth = { authorization: `Bearer ${token.access_token}` };
    const user = await this.call<{ id?: number; login?: string; name?: string | null }>(
      `${this.settings.apiUrl}/user`,
      { headers: auth },
    );
    const emails = await this.call<Array<{ email: string; primary: boolean; verified: boolean }>>(
      `${this.settings.apiUrl}/user/emails`,
      { headers: auth },
    );
    if (typeof user.id !== 'number') throw unreachable(this.name);
    const verified = Array.isArray(emails) ? emails.filter((e) => e.verified) : [];
    const chosen = verified.find((e) => e.primary) ?? verified[0];
    return {
      provider: 'github',
      issuer: this.settings.url,
      subject: String(user.id),
      email: chosen ? strictAddress(this.name, chosen.email) : null,
      emailVerified: chosen !== undefined,
      fullName: user.name ?? '',
      usernameHint: user.login ?? chosen?.email ?? '',
    };
  }

  private async call<T>(url: string, init: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: {
          accept: 'application/json',
          'user-agent': 'Cumulus',
          ...(init.headers as Record<string, string>),
        },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw unreachable(this.name);
    }
    if (response.status === 401 || response.status === 403) {
      throw refusal(M.codeRefused(this.name), 'SIGN_IN_CODE_REFUSED');
    }
    if (!response.ok) throw unreachable(this.name);
    return (await response.json()) as T;
  }
}

/** The provider's address, lower case; one that is not a single valid address signs no one in. */
function strictAddress(providerName: string, raw: string): string {
  const parsed = parseEmail(raw);
  if (!parsed) throw refusal(M.emailInvalid(providerName, raw), 'SIGN_IN_EMAIL_INVALID');
  return parsed.email;
}

/** The provider could not be reached or answered nonsense: a 502 that signs no one in. */
const unreachable = (name: string) =>
  new ApiError(502, {
    non_field_errors: [M.unreachable(name)],
    detail: M.unreachable(name),
    code: 'SIGN_IN_PROVIDER_UNREACHABLE',
  });
