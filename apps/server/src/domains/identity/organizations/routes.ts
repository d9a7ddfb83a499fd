import type { FastifyContextConfig } from 'fastify';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { itemsOf } from '../../../http/pagination.js';
import { z } from '../../../http/zod.js';
import { numericParam, organizationOf } from '../access/resolve.js';
import { inviteSchema } from '../invites/schemas.js';
import { organizationParams } from '../memberships/schemas.js';
import type { IdentityDeps } from '../ports.js';
import * as members from './members.js';
import {
  addMembershipBody,
  alreadyMemberSchema,
  createOrganizationBody,
  membershipParams,
  organizationListQuery,
  organizationMembershipSchema,
  organizationSchema,
  organizationSummarySchema,
  staffListQuery,
  staffValuesQuery,
  updateMembershipBody,
} from './schemas.js';
import * as organizations from './service.js';

const tags = ['organizations'];
const user = { auth: 'user' } as const;
/** The caller's standing in the organization of a membership the path names. */
const ofMembership = (db: Deps['db'], need: 'read' | 'members') =>
  ({
    auth: 'user',
    organization: {
      need,
      key: async (request) =>
        (await members.membershipRow(db, numericParam(request, 'membership_id'))).organization.id,
    },
  }) as const satisfies FastifyContextConfig;
const staff = { auth: 'staff' } as const;
const base = '/api/v2/users/organizations';

export function registerOrganizationRoutes(app: App, deps: IdentityDeps): void {
  const { db } = deps;
  const { plans } = deps.identityPorts;

  app.post(
    `${base}/create`,
    { config: user, schema: { tags, body: createOrganizationBody, response: { 201: organizationSchema } } },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await organizations.createOrganization(
            db,
            deps.identityPorts,
            currentUser(request),
            request.body.name,
          ),
        ),
  );

  app.get(
    `${base}/`,
    {
      config: user,
      schema: {
        tags,
        querystring: organizationListQuery,
        response: { 200: itemsOf(organizationSummarySchema) },
      },
    },
    async (request) => organizations.listOrganizations(db, plans, currentUser(request), request.query),
  );

  app.get(
    `${base}/details/:organization_id`,
    {
      config: { auth: 'user', organization: 'read' },
      schema: { tags, params: organizationParams, response: { 200: organizationSchema } },
    },
    async (request) => organizations.organizationDetails(db, deps.identityPorts, organizationOf(request)),
  );

  app.delete(
    `${base}/delete/:organization_id`,
    {
      config: { auth: 'user', organization: 'admin' },
      schema: { tags, params: organizationParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await organizations.deleteOrganization(db, organizationOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/members/:organization_id`,
    {
      config: { auth: 'user', organization: 'read' },
      schema: {
        tags,
        params: organizationParams,
        querystring: organizationListQuery,
        response: { 200: itemsOf(organizationMembershipSchema) },
      },
    },
    async (request) =>
      members.listMembers(db, deps.identityPorts.billing, organizationOf(request), request.query),
  );

  app.get(
    `${base}/membership/:membership_id`,
    {
      config: ofMembership(db, 'read'),
      schema: { tags, params: membershipParams, response: { 200: organizationMembershipSchema } },
    },
    async (request) =>
      members.getMembership(
        db,
        deps.identityPorts.billing,
        organizationOf(request),
        request.params.membership_id,
      ),
  );

  app.post(
    `${base}/add-membership`,
    {
      config: {
        auth: 'user',
        organization: {
          need: 'members',
          key: (request) => (request.body as { organization_id: number }).organization_id,
        },
      },
      schema: {
        tags,
        description:
          'Adds a user by username or email. Known users become members (`membership`); an unknown ' +
          'email is invited (`invite`). 409 ALREADY_MEMBER carries `membership_id`, 409 ALREADY_INVITED `invite_id`.',
        body: addMembershipBody,
        response: {
          201: z.object({
            membership: organizationMembershipSchema.nullable(),
            invite: inviteSchema.nullable(),
          }),
          409: alreadyMemberSchema
            .partial({ membership_id: true })
            .extend({ invite_id: z.number().int().optional() }),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await members.addMembership(deps, organizationOf(request), request.body)),
  );

  app.patch(
    `${base}/update-membership/:membership_id`,
    {
      config: ofMembership(db, 'members'),
      schema: {
        tags,
        params: membershipParams,
        body: updateMembershipBody,
        response: { 200: organizationMembershipSchema },
      },
    },
    async (request) =>
      members.updateMembership(
        db,
        deps.identityPorts.billing,
        organizationOf(request),
        request.params.membership_id,
        request.body,
      ),
  );

  app.delete(
    `${base}/remove-membership/:membership_id`,
    {
      config: ofMembership(db, 'members'),
      schema: { tags, params: membershipParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await members.removeMembership(db, organizationOf(request), request.params.membership_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/staff-list`,
    {
      config: staff,
      schema: { tags, querystring: staffListQuery, response: { 200: itemsOf(organizationSummarySchema) } },
    },
    async (request) => organizations.staffListOrganizations(db, plans, currentUser(request), request.query),
  );

  app.get(
    `${base}/staff-list-values`,
    {
      config: staff,
      schema: {
        tags,
        querystring: staffValuesQuery,
        response: { 200: itemsOf(z.object({ id: z.number().int(), name: z.string() })) },
      },
    },
    async (request) => organizations.staffListValues(db, request.query.starts_with, request.query.limit),
  );
}
