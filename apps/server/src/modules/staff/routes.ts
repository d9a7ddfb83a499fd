import { count, desc } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../http/errors.js';
import { itemsOf, offsetQuery } from '../../http/pagination.js';
import { id, z } from '../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { accountSubject, addressSubject, clearFailures } from '../auth/lockout.js';
import { findUserBy } from '../auth/service.js';

const tags = ['staff'];
const staff = { auth: 'staff' } as const;

const emailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created: z.string(),
  sent_at: z.string().nullable(),
});

export function registerStaffRoutes(app: App, { db }: Deps): void {
  app.post(
    '/api/v2/staff/users/:id/unlock',
    {
      config: staff,
      schema: {
        tags,
        params: z.object({ id }),
        body: z.object({ address: z.string().trim().max(100).optional() }).nullish(),
        response: { 200: z.object({ detail: z.string(), cleared: z.number().int() }) },
      },
    },
    async (request) => {
      const user = await findUserBy(db, 'id', request.params.id);
      if (!user) throw notFound();
      const subjects = [accountSubject(user.id), `name:${user.username}`, `name:${user.email}`];
      if (request.body?.address) subjects.push(addressSubject(request.body.address));
      const cleared = await clearFailures(db, subjects);
      return { detail: `Unlocked ${user.username}.`, cleared };
    },
  );

  // Mail kept without SMTP (and delivery failures) stay readable here.
  app.get(
    '/api/v2/staff/emails',
    { config: staff, schema: { tags, querystring: offsetQuery, response: { 200: itemsOf(emailSchema) } } },
    async (request) => {
      const [total] = await db.select({ n: count() }).from(emailOutbox);
      const rows = await db
        .select()
        .from(emailOutbox)
        .orderBy(desc(emailOutbox.id))
        .limit(request.query.limit)
        .offset(request.query.offset);
      return {
        count: total?.n ?? 0,
        items: rows.map((m) => ({
          id: m.id,
          to: m.to,
          subject: m.subject,
          text: m.text,
          status: m.status,
          attempts: m.attempts,
          last_error: m.lastError,
          created: isoTime(m.created),
          sent_at: isoTimeOrNull(m.sentAt),
        })),
      };
    },
  );
}
