import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitHubUser {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

/**
 * A small stand-in for GitHub (or GitHub Enterprise Server) speaking its OAuth web flow
 * (/login/oauth/authorize, /login/oauth/access_token, PKCE S256) and REST (/user, /user/emails,
 * under /api/v3 as on Enterprise). Codes are single-use; `nextUser` signs in at the next authorize.
 */
export class FakeGitHub {
  url = '';
  nextUser: FakeGitHubUser | null = null;
  readonly #codes = new Map<string, { user: FakeGitHubUser; challenge: string; redirect: string }>();
  readonly #tokens = new Map<string, FakeGitHubUser>();
  #server: Server | null = null;

  constructor(readonly client: { clientId: string; clientSecret: string }) {}

  get apiUrl(): string {
    return `${this.url}/api/v3`;
  }

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      this.#handle(req)
        .then(({ status, body, location }) => {
          if (location) res.writeHead(302, { location }).end();
          else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        })
        .catch((err) => res.writeHead(500).end(String(err)));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.url;
  }

  async #handle(req: IncomingMessage): Promise<{ status: number; body?: unknown; location?: string }> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== this.client.clientId || !this.nextUser) return { status: 404 };
      const code = randomBytes(10).toString('hex');
      const redirect = q.get('redirect_uri') ?? '';
      this.#codes.set(code, { user: this.nextUser, challenge: q.get('code_challenge') ?? '', redirect });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      return { status: 302, location: back.toString() };
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(await readBody(req));
      const grant = this.#codes.get(form.get('code') ?? '');
      this.#codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const ok =
        grant &&
        form.get('client_id') === this.client.clientId &&
        form.get('client_secret') === this.client.clientSecret &&
        form.get('redirect_uri') === grant.redirect &&
        createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
      // GitHub answers a bad code with 200 and an error field.
      if (!ok) return { status: 200, body: { error: 'bad_verification_code' } };
      const token = `gho_${randomBytes(12).toString('hex')}`;
      this.#tokens.set(token, grant.user);
      return {
        status: 200,
        body: { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' },
      };
    }
    const user = this.#tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (url.pathname === '/api/v3/user' || url.pathname === '/api/v3/user/emails') {
      if (!user) return { status: 401, body: { message: 'Bad credentials' } };
      if (url.pathname === '/api/v3/user')
        return { status: 200, body: { id: user.id, login: user.login, name: user.name } };
      return { status: 200, body: user.emails };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
