import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { fieldError } from '../../../http/errors.js';
import { itemsOf, pageOf, pageResult } from '../../../http/pagination.js';
import { id, z } from '../../../http/zod.js';
import { workspaceParams } from '../../clusters/index.js';
import { numericParam, organizationOf, organizationParams, workspaceOf } from '../../identity/index.js';
import { creditsRenewAt } from '../plans/periods.js';
import { organizationUsage, workspaceConsumption } from './consumption.js';
import { coreUsage } from './cores.js';
import {
  billingEventById,
  billingEventValues,
  listBillingEvents,
  listUserBillingEvents,
  recordBillingEvent,
} from './events.js';
import {
  billingEventSchema,
  billingEventsQuery,
  billingEventValuesQuery,
  coreUsageSchema,
  createBillingEventBody,
  organizationUsageQuery,
  organizationUsageSchema,
  planSchema,
  planUsageSchema,
  tierChangeBody,
  updateLimitsBody,
  updateStaffBody,
  workspaceBillingEventsQuery,
  workspaceUsageSchema,
} from './schemas.js';
import * as pricing from './service.js';

const tags = ['pricing'];
const user = { auth: 'user' } as const;
const staff = { auth: 'staff' } as const;
/** Readers of the path's organization. */
const orgReader = { auth: 'user', organization: 'read' } as const;
/** Plans are changed by the path's organization's admins, and by staff. */
const planAdmin = { auth: 'user', organization: { need: 'admin', orStaff: true } } as const;
/** Readers of the path's workspace. */
const wsReader = { auth: 'user', workspace: 'read' } as const;
const base = '/api/v2/pricing';

export function registerPricingRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  const plan = { params: organizationParams, response: { 200: planSchema } };

  app.get(
    `${base}/:organization_id`,
    { config: orgReader, schema: { tags, description: "The organization's plan and billing.", ...plan } },
    async (request) => pricing.getPlan(deps, organizationOf(request)),
  );

  app.get(
    `${base}/usage/:organization_id`,
    {
      config: orgReader,
      schema: {
        tags,
        description: "This month's credits and spend against the plan's limits, in percent.",
        params: organizationParams,
        response: { 200: planUsageSchema },
      },
    },
    async (request) => pricing.getPlanUsage(deps, organizationOf(request)),
  );

  app.get(
    `${base}/workspace/:workspace_id/usage`,
    {
      config: {
        auth: 'user',
        workspace: { key: (request) => ({ id: numericParam(request, 'workspace_id') }) },
      },
      schema: {
        tags,
        description: "This month's credits of the caller and of the workspace against their limits.",
        params: z.object({ workspace_id: id }),
        response: { 200: workspaceUsageSchema },
      },
    },
    async (request) => {
      const access = workspaceOf(request);
      const memberLimit = access.membership?.creditLimit ?? null;
      return {
        workspace_id: access.workspace.id,
        renew_date: creditsRenewAt(),
        credit_limit: memberLimit,
        workspace_credit_limit: access.workspace.creditLimit,
        ...(await workspaceConsumption(db, access.workspace, access.user.id, memberLimit)),
      };
    },
  );

  app.patch(
    `${base}/update/:organization_id`,
    {
      config: planAdmin,
      schema: {
        tags,
        description: 'Organization admins set their credit and spend limits.',
        body: updateLimitsBody,
        ...plan,
      },
    },
    async (request) => pricing.updateLimits(deps, organizationOf(request), request.body),
  );

  app.patch(
    `${base}/update-staff/:organization_id`,
    {
      config: { ...staff, organization: 'read' },
      schema: { tags, description: 'Staff set any field of the plan.', body: updateStaffBody, ...plan },
    },
    async (request) => pricing.updateStaff(deps, organizationOf(request), request.body),
  );

  app.post(
    `${base}/downgrade-to-free/:organization_id`,
    { config: planAdmin, schema: { tags, body: tierChangeBody, ...plan } },
    async (request) => pricing.downgradeToFree(deps, organizationOf(request)),
  );

  app.post(
    `${base}/upgrade-to-enterprise/:organization_id`,
    { config: planAdmin, schema: { tags, body: tierChangeBody, ...plan } },
    async (request) => pricing.upgradeToEnterprise(deps, organizationOf(request)),
  );

  app.get(
    `${base}/organization/:organization_id/usage`,
    {
      config: planAdmin,
      schema: {
        tags,
        description: "The organization's usage between two instants, per workspace (organization admins).",
        params: organizationParams,
        querystring: organizationUsageQuery,
        response: { 200: organizationUsageSchema },
      },
    },
    async (request) => {
      const orgId = organizationOf(request).organization.id;
      const { start_date, end_date } = request.query;
      return {
        organization_id: orgId,
        start_date,
        end_date,
        ...(await organizationUsage(db, orgId, new Date(start_date), new Date(end_date))),
      };
    },
  );

  app.get(
    `${base}/billing-events/`,
    {
      config: user,
      schema: {
        tags,
        description: 'Billing events of the organizations the caller administers (staff: all), newest first.',
        querystring: billingEventsQuery,
        response: { 200: itemsOf(billingEventSchema) },
      },
    },
    async (request) => listUserBillingEvents(db, currentUser(request), request.query, request.query),
  );

  app.post(
    `${base}/billing-events/`,
    {
      config: {
        ...staff,
        // The workspace the event is about (account_id), else its organization: resolved once.
        workspace: {
          key: (request) => {
            const { account_id } = request.body as { account_id?: number };
            return account_id === undefined ? null : { id: account_id };
          },
        },
        organization: {
          key: (request) => {
            const body = request.body as { account_id?: number; organization_id: number };
            return body.account_id === undefined ? body.organization_id : null;
          },
        },
      },
      schema: {
        tags,
        description: 'Staff record a billing event (a note, an adjustment).',
        body: createBillingEventBody,
        response: { 201: billingEventSchema },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const body = request.body;
      if (body.account_id !== undefined && workspaceOf(request).organization.id !== body.organization_id)
        throw fieldError('account_id', 'That workspace belongs to another organization.');
      const eventId = await recordBillingEvent(db, {
        organizationId: body.organization_id,
        workspaceId: body.account_id ?? null,
        userId: me.id,
        kind: body.kind,
        detail: body.detail,
        data: body.data,
      });
      return reply.code(201).send((await billingEventById(db, eventId))!);
    },
  );

  app.get(
    `${base}/billing-events/key/values`,
    {
      config: user,
      schema: {
        tags,
        description:
          'Values of a billing-event filter (kind, organization, account) that start with the text.',
        querystring: billingEventValuesQuery,
        response: { 200: z.array(z.string()) },
      },
    },
    async (request) =>
      billingEventValues(db, currentUser(request), request.query.key, request.query.starts_with),
  );

  // The v1 calls established clients make (client-contract section 7).
  app.get(
    '/api/v1/:account/billing-events/',
    {
      config: wsReader,
      schema: {
        tags,
        description: "A workspace's billing events (limits reached, with their clusters), newest first.",
        params: workspaceParams,
        querystring: workspaceBillingEventsQuery,
        response: { 200: pageOf(billingEventSchema) },
      },
    },
    async (request) => {
      const access = workspaceOf(request);
      const { count, items } = await listBillingEvents(
        db,
        { workspaceId: access.workspace.id },
        request.query,
        request.query,
      );
      return pageResult(request, request.query, count, items);
    },
  );

  app.get(
    '/api/v1/:account/usage/cores/',
    {
      config: wsReader,
      schema: {
        tags,
        description:
          'Cores in use now by the caller and the workspace, and instances across the organization.',
        params: workspaceParams,
        response: { 200: coreUsageSchema },
      },
    },
    async (request) => {
      const access = workspaceOf(request);
      return coreUsage(db, access, access.user.id);
    },
  );
}
