import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { itemsOf, offsetQuery } from '../../http/pagination.js';
import { emailSchema, unlockAnswer, unlockBody, unlockParams } from './schemas.js';
import { listEmails, unlockUser } from './service.js';

const tags = ['staff'];
const staff = { auth: 'staff' } as const;

export function registerStaffRoutes(app: App, { db }: Deps): void {
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
}
