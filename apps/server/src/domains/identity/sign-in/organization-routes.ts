import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { organizationOf } from '../access/resolve.js';
import { organizationParams } from '../memberships/schemas.js';
import { txtLookup } from './domain-proof.js';
import {
  organizationSsoSchema,
  pendingDomainsSchema,
  requireSsoBody,
  ssoConnectionBody,
  ssoDomainBody,
  ssoDomainParams,
  ssoDomainSchema,
  staffDomainParams,
} from './organization-schemas.js';
import * as sso from './organization-sso.js';

const tags = ['organizations'];
const admin = { auth: 'user', organization: 'admin' } as const;
const base = '/api/v2/users/organizations/sso/:organization_id';

/**
 * An organization's own single sign-on (docs/sso.md): its OIDC connection, the email domains it
 * proves (a DNS TXT record, or a staff decision) and whether its members must sign in through it.
 * Organization admins only; the staff routes decide on domains that cannot be proven by DNS.
 */
export function registerOrganizationSsoRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  const lookup = txtLookup(deps.config.signIn.dnsServers);
  const view = (request: Parameters<typeof organizationOf>[0]) =>
    sso.organizationSso(deps, organizationOf(request).organization);

  app.get(
    base,
    { config: admin, schema: { tags, params: organizationParams, response: { 200: organizationSsoSchema } } },
    async (request) => view(request),
  );

  app.put(
    `${base}/connection`,
    {
      config: admin,
      schema: {
        tags,
        params: organizationParams,
        body: ssoConnectionBody,
        response: { 200: organizationSsoSchema },
      },
    },
    async (request) => {
      await sso.setConnection(deps, organizationOf(request).organization, request.body);
      return view(request);
    },
  );

  app.put(
    `${base}/require`,
    {
      config: admin,
      schema: {
        tags,
        params: organizationParams,
        body: requireSsoBody,
        response: { 200: organizationSsoSchema },
      },
    },
    async (request) => {
      await sso.setRequireSso(db, organizationOf(request).organization, request.body.require_sso);
      return view(request);
    },
  );

  app.post(
    `${base}/domains`,
    {
      config: admin,
      schema: { tags, params: organizationParams, body: ssoDomainBody, response: { 201: ssoDomainSchema } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await sso.addDomain(db, organizationOf(request).organization, request.body.domain)),
  );

  app.post(
    `${base}/domains/:domain_id/verify`,
    { config: admin, schema: { tags, params: ssoDomainParams, response: { 200: ssoDomainSchema } } },
    async (request) =>
      sso.verifyDomainByDns(db, lookup, organizationOf(request).organization, request.params.domain_id),
  );

  app.delete(
    `${base}/domains/:domain_id`,
    { config: admin, schema: { tags, params: ssoDomainParams } },
    async (request, reply) => {
      await sso.removeDomain(db, organizationOf(request).organization, request.params.domain_id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v2/staff/sso-domains',
    { config: { auth: 'staff' }, schema: { tags: ['staff'], response: { 200: pendingDomainsSchema } } },
    async () => sso.pendingDomains(db),
  );

  app.post(
    '/api/v2/staff/sso-domains/:domain_id/verify',
    {
      config: { auth: 'staff' },
      schema: { tags: ['staff'], params: staffDomainParams, response: { 200: ssoDomainSchema } },
    },
    async (request) => sso.verifyDomainByStaff(db, currentUser(request), request.params.domain_id),
  );
}
