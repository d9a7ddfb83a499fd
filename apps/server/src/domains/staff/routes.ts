import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { currentUser } from '../../http/auth.js';
import { itemsOf, offsetQuery } from '../../http/pagination.js';
import { listAttentionClusters } from '../clusters/index.js';
import {
  attentionClusterSchema,
  attentionQuery,
  emailSchema,
  staffUserBody,
  staffUserParams,
  staffUserSchema,
  staffUsersQuery,
  unlockAnswer,
  unlockBody,
  unlockParams,
} from './schemas.js';
import { listEmails, listUsers, unlockUser, updateUser } from './service.js';

const tags = ['staff'];
const staff = { auth: 'staff' } as const;

export function registerStaffRoutes(app: App, { db }: Deps): void {
  app.get(
    '/api/v2/staff/users',
    {
      config: staff,
      schema: { tags, querystring: staffUsersQuery, response: { 200: itemsOf(staffUserSchema) } },
    },
    async (request) => listUsers(db, request.query),
  );

  app.patch(
    '/api/v2/staff/users/:id',
    {
      config: staff,
      schema: {
        tags,
        description:
          'Locks or unlocks a user (`is_active`), or sets their staff flag (never your own), or shows them the Notebooks page (`should_see_notebook_page`).',
        params: staffUserParams,
        body: staffUserBody,
        response: { 200: staffUserSchema },
      },
    },
    async (request) => updateUser(db, currentUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/v2/staff/users/:id/unlock',
    {
      config: staff,
      schema: { tags, params: unlockParams, body: unlockBody, response: { 200: unlockAnswer } },
    },
    async (request) => unlockUser(db, request.params.id, request.body?.address),
  );

  // Mail kept without SMTP (and delivery failures) stay readable here.
  app.get(
    '/api/v2/staff/emails',
    { config: staff, schema: { tags, querystring: offsetQuery, response: { 200: itemsOf(emailSchema) } } },
    async (request) => listEmails(db, request.query),
  );

  app.get(
    '/api/v2/staff/clusters',
    {
      config: staff,
      schema: {
        tags,
        description:
          'Clusters needing attention: failed clusters staff have not marked seen (`staff-has-seen`), newest first.',
        querystring: attentionQuery,
        response: { 200: itemsOf(attentionClusterSchema) },
      },
    },
    async (request) => listAttentionClusters(db, request.query),
  );
}
