import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { emailOutbox, users } from '../db/schema/index.js';
import { announce } from '../lib/log.js';
import { verificationEmail } from './templates.js';

const SUBJECT = verificationEmail('', '', '').subject;
/** The link's validity (templates.ts says 3 days). */
const VALID_DAYS = 3;

/**
 * Without a mail server, the confirmation mails kept for people who have not confirmed yet (the
 * newest per address, links still valid), printed again at the end of start-up: the one line a
 * newcomer needs is then the last thing the start says, not somewhere in the log before it.
 */
export async function announceWaitingVerifications(db: Db, log: FastifyBaseLogger): Promise<number> {
  const kept = await db
    .selectDistinctOn([emailOutbox.to], { id: emailOutbox.id, to: emailOutbox.to, text: emailOutbox.text })
    .from(emailOutbox)
    .innerJoin(users, eq(users.email, sql`lower(${emailOutbox.to})`))
    .where(
      and(
        eq(emailOutbox.status, 'kept'),
        eq(emailOutbox.subject, SUBJECT),
        isNull(users.emailVerifiedAt),
        gt(emailOutbox.created, sql`now() - make_interval(days => ${VALID_DAYS})`),
      ),
    )
    .orderBy(emailOutbox.to, desc(emailOutbox.id));
  for (const mail of kept)
    announce(
      log,
      { mailId: mail.id, to: mail.to, subject: SUBJECT, block: mail.text },
      'waiting for its link to be opened (kept, not sent: no mail server is configured)',
    );
  return kept.length;
}
