import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config.js';
import { Signer } from '../../../lib/crypto.js';

/**
 * Short-lived signed, httpOnly cookies that bind a provider sign-in to the browser that started it:
 * `cumulus_sign_in` carries the flow's state, nonce and PKCE verifier from the redirect to the
 * provider to the code exchange; `cumulus_link` carries a provider identity waiting to be linked to
 * the account whose address it shares, until that account's owner signs in to it.
 */
export const FLOW_COOKIE = 'cumulus_sign_in';
export const LINK_COOKIE = 'cumulus_link';
export const FLOW_TTL_SECONDS = 600;
export const LINK_TTL_SECONDS = 1800;

export type ProviderId = 'sso' | 'google' | 'github';

export interface Flow {
  provider: ProviderId;
  state: string;
  nonce: string;
  verifier: string;
  /** Sign-in through this organization's own connection (found by the email's domain). */
  organizationId?: number;
}

export interface PendingLink {
  provider: ProviderId;
  issuer: string;
  subject: string;
  email: string;
  userId: number;
}

export class SignedCookies {
  readonly #signer: Signer;
  readonly #secure: boolean;

  constructor(config: Config) {
    this.#signer = new Signer(config.secret, 'sign-in-cookies');
    this.#secure = config.publicUrl.startsWith('https:');
  }

  set(reply: FastifyReply, name: string, value: object, ttlSeconds: number): void {
    const body = Buffer.from(
      JSON.stringify({ name, value, expires: Date.now() + ttlSeconds * 1000 }),
    ).toString('base64url');
    reply.setCookie(name, `${body}.${this.#signer.sign(body)}`, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      maxAge: ttlSeconds,
    });
  }

  /** The cookie's value if this server signed it for `name` and it has not expired; else null. */
  get<T>(request: FastifyRequest, name: string): T | null {
    const raw = request.cookies[name];
    if (!raw) return null;
    const [body, signature] = raw.split('.');
    if (!body || !signature || !this.#signer.verify(body, signature)) return null;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      if (parsed.name !== name || typeof parsed.expires !== 'number' || parsed.expires < Date.now())
        return null;
      return parsed.value as T;
    } catch {
      return null;
    }
  }

  clear(reply: FastifyReply, name: string): void {
    reply.clearCookie(name, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.#secure });
  }
}
