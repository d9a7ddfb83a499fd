import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { User } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { ApiError, notFound } from '../../../http/errors.js';
import { detailSchema } from '../../../http/zod.js';
import { safeEqual } from '../../../lib/crypto.js';
import type { IdentityDeps } from '../ports.js';
import { linkPending, listIdentities, signInWithIdentity, unlinkIdentity } from './accounts.js';
import {
  FLOW_COOKIE,
  FLOW_TTL_SECONDS,
  type Flow,
  LINK_COOKIE,
  LINK_TTL_SECONDS,
  type PendingLink,
  type ProviderId,
  SignedCookies,
} from './cookies.js';
import { isAllowedIssuer } from './issuer-guard.js';
import { confirmLinkProof, LINK_EMAIL_MESSAGES, mailLinkProof, peekLinkProof } from './link-by-email.js';
import { SIGN_IN_MESSAGES as M, refusal } from './messages.js';
import {
  connectionForEmail,
  connectionOf,
  type OrganizationConnection,
  ownsEmailDomain,
} from './organization-sso.js';
import { type CallbackAnswer, callbackUrl, configuredProviders, OidcProvider } from './providers.js';
import {
  identitiesResponse,
  identityParams,
  linkCheckResponse,
  linkConfirmBody,
  linkConfirmResponse,
  providerParams,
  providerTokenBody,
  signInResponse,
  ssoLoginQuery,
  ssoSuccessQuery,
} from './schemas.js';

const NAMES: Record<ProviderId, string> = { github: 'GitHub', google: 'Google', sso: 'SSO' };
const isProviderId = (id: string): id is ProviderId => Object.hasOwn(NAMES, id);

/**
 * Sign-in through an identity provider (spec/api.md: GET workos/login and workos/success for SSO,
 * POST /users/{provider}/get_token for GitHub and Google). The login path sends the browser to the
 * provider with state, nonce and a PKCE challenge whose secrets stay in a signed httpOnly cookie;
 * the provider returns to the console's callback page, which hands code and state here.
 */
export function registerProviderRoutes(app: App, deps: IdentityDeps): void {
  const tags = ['auth'];
  const cookies = new SignedCookies(deps.config);
  const providers = new Map(configuredProviders(deps.config).map((p) => [p.id, p]));
  const notConfigured = (id: ProviderId) =>
    new ApiError(400, {
      non_field_errors: [M.notConfigured(NAMES[id])],
      detail: M.notConfigured(NAMES[id]),
      code: 'PROVIDER_NOT_CONFIGURED',
    });

  /** The provider of a sign-in: the organization's own connection when the flow names one. */
  async function providerOf(id: ProviderId, organizationId: number | undefined) {
    if (organizationId === undefined) return { provider: providers.get(id), via: null };
    const via = await connectionOf(deps, organizationId);
    return { provider: via ? organizationProvider(via) : undefined, via };
  }
  const organizationProvider = (via: OrganizationConnection) =>
    new OidcProvider(
      'sso',
      {
        issuer: via.issuer,
        clientId: via.clientId,
        clientSecret: via.clientSecret,
        name: via.organizationName,
      },
      callbackUrl(deps.config, 'sso'),
      // An organization admin chose the issuer: it is held to the rule at every sign-in too.
      {
        allowedOrigin: isAllowedIssuer(deps.config.signIn.allowedIssuers, via.issuer)
          ? new URL(via.issuer).origin
          : null,
      },
    );

  async function start(id: ProviderId, reply: FastifyReply, organization?: OrganizationConnection) {
    const provider = organization ? organizationProvider(organization) : providers.get(id);
    if (!provider) return reply.redirect(`/login?open=true&sso=not-configured&provider=${id}`, 302);
    const flow: Flow = {
      provider: id,
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      ...(organization ? { organizationId: organization.organizationId } : {}),
    };
    let url: string;
    try {
      url = await provider.authorizeUrl(flow);
    } catch (err) {
      reply.log.warn({ err }, `The sign-in with ${provider.name} could not start`);
      return reply.redirect(`/login?open=true&sso=unreachable&provider=${id}`, 302);
    }
    cookies.set(reply, FLOW_COOKIE, flow, FLOW_TTL_SECONDS);
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  }

  async function finish(
    id: ProviderId,
    request: FastifyRequest,
    reply: FastifyReply,
    answer: CallbackAnswer,
  ): Promise<{ key: string; existing: boolean }> {
    const flow = cookies.get<Flow>(request, FLOW_COOKIE);
    // A flow is used once, whatever comes of it.
    cookies.clear(reply, FLOW_COOKIE);
    const { provider, via } = await providerOf(id, flow?.organizationId);
    if (!provider) throw notConfigured(id);
    if (!flow || flow.provider !== id || !safeEqual(flow.state, answer.state)) {
      throw refusal(M.flowMissing, 'SIGN_IN_STATE_MISMATCH');
    }
    const identity = await provider.finish(flow, answer);
    // An organization's provider vouches only for addresses in the domains the organization proved.
    if (via && !(identity.email && (await ownsEmailDomain(deps.db, via.organizationId, identity.email)))) {
      throw refusal(M.domainNotOwned(via.organizationName), 'SIGN_IN_DOMAIN_NOT_OWNED');
    }
    const outcome = await signInWithIdentity(deps, identity, provider.name, via);
    if (outcome.kind === 'link-required') {
      cookies.set(reply, LINK_COOKIE, outcome.link, LINK_TTL_SECONDS);
      throw refusal(M.alreadyRegistered, 'IDENTITY_LINK_REQUIRED');
    }
    // Signing in to the account through another linked provider proves it too.
    const waiting = cookies.get<PendingLink>(request, LINK_COOKIE);
    if (waiting?.userId === outcome.userId) {
      await linkPending(deps.db, waiting, { id: outcome.userId } as User);
      cookies.clear(reply, LINK_COOKIE);
    }
    return { key: outcome.key, existing: outcome.existing };
  }

  app.get(
    '/api/v2/workos/login',
    { config: { auth: 'none' }, schema: { tags, hide: true, querystring: ssoLoginQuery } },
    async (request, reply) => {
      const { email } = request.query;
      // With a work email: the connection of the organization that proved its domain, if any.
      const organization = email ? await connectionForEmail(deps, email) : null;
      if (organization) return start('sso', reply, organization);
      if (email && !providers.has('sso')) {
        return reply.redirect(`/login?open=true&sso=no-connection&email=${encodeURIComponent(email)}`, 302);
      }
      return start('sso', reply);
    },
  );

  app.get(
    '/api/v2/auth/:provider/login',
    { config: { auth: 'none' }, schema: { tags, hide: true, params: providerParams } },
    async (request, reply) => {
      const id = request.params.provider.toLowerCase();
      if (!isProviderId(id) || id === 'sso') throw notFound();
      return start(id, reply);
    },
  );

  app.get(
    '/api/v2/workos/success',
    {
      config: { auth: 'none' },
      schema: { tags, querystring: ssoSuccessQuery, response: { 200: signInResponse } },
    },
    async (request, reply) => finish('sso', request, reply, request.query),
  );

  app.post(
    '/users/:provider/get_token',
    {
      config: { auth: 'none' },
      schema: { tags, params: providerParams, body: providerTokenBody, response: { 200: signInResponse } },
    },
    async (request, reply) => {
      const id = request.params.provider.toLowerCase();
      if (!isProviderId(id) || id === 'sso') throw notFound();
      return finish(id, request, reply, request.body);
    },
  );

  app.post(
    '/api/v2/user/identities/link-email',
    { config: { auth: 'none' }, schema: { tags, response: { 200: detailSchema } } },
    async (request) => {
      const waiting = cookies.get<PendingLink>(request, LINK_COOKIE);
      const name = waiting ? (providers.get(waiting.provider)?.name ?? NAMES[waiting.provider]) : '';
      const sentTo = await mailLinkProof(deps, waiting, name);
      return { detail: LINK_EMAIL_MESSAGES.sent(sentTo) };
    },
  );

  app.post(
    '/api/v2/user/identities/link-check',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        description: 'What a mailed link would link, without using it; refuses a used or expired one.',
        body: linkConfirmBody,
        response: { 200: linkCheckResponse },
      },
    },
    async (request) => {
      const { provider, email, username } = await peekLinkProof(deps, request.body.token);
      const id = provider as ProviderId;
      return { provider: id, name: providers.get(id)?.name ?? NAMES[id] ?? provider, email, username };
    },
  );

  app.post(
    '/api/v2/user/identities/link-confirm',
    {
      config: { auth: 'none' },
      schema: { tags, body: linkConfirmBody, response: { 200: linkConfirmResponse } },
    },
    async (request) => {
      const { provider, key, passwordRemoved } = await confirmLinkProof(deps, request.body.token);
      const id = provider as ProviderId;
      const linked = LINK_EMAIL_MESSAGES.linked(providers.get(id)?.name ?? NAMES[id] ?? provider);
      return { detail: passwordRemoved ? `${linked} ${LINK_EMAIL_MESSAGES.passwordRemoved}` : linked, key };
    },
  );

  app.get(
    '/api/v2/user/identities',
    { config: { auth: 'user' }, schema: { tags, response: { 200: identitiesResponse } } },
    async (request) =>
      (await listIdentities(deps.db, currentUser(request).id)).map((row) => ({
        ...row,
        provider: row.provider as ProviderId,
        name:
          providers.get(row.provider as ProviderId)?.name ??
          NAMES[row.provider as ProviderId] ??
          row.provider,
      })),
  );

  app.delete(
    '/api/v2/user/identities/:identity_id',
    { config: { auth: 'user' }, schema: { tags, params: identityParams } },
    async (request, reply) => {
      const removed = await unlinkIdentity(deps.db, currentUser(request), request.params.identity_id);
      if (!removed) throw notFound();
      return reply.code(204).send();
    },
  );
}

/** After a password sign-in: links the provider identity waiting in this browser for this user. */
export async function linkWaitingIdentity(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<void> {
  const cookies = new SignedCookies(deps.config);
  const waiting = cookies.get<PendingLink>(request, LINK_COOKIE);
  if (waiting && (await linkPending(deps.db, waiting, user))) cookies.clear(reply, LINK_COOKIE);
}
