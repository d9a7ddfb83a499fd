import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { emailOutbox } from '../db/schema/index.js';
import { announce } from '../lib/log.js';
import { verificationEmail } from './templates.js';

const SUBJECT = verificationEmail('', '', '').subject;
/** The link's validity (templates.ts says 3 days). */
const VALID_DAYS = 3;

/**
 * Without a mail server, the confirmation mails kept for people who have not confirmed yet (the
 * newest per address, links still valid; `unconfirmed` says which addresses are, identity's to
 * know), printed again at the end of start-up: the line a newcomer needs comes last, not somewhere
 * in the log before it.
 */
export async function announceWaitingVerifications(
  db: Db,
  log: FastifyBaseLogger,
  unconfirmed: (emails: string[]) => Promise<Set<string>>,
): Promise<number> {
  const kept = await db
    .selectDistinctOn([emailOutbox.to], { id: emailOutbox.id, to: emailOutbox.to, text: emailOutbox.text })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.status, 'kept'),
        eq(emailOutbox.subject, SUBJECT),
        gt(emailOutbox.created, sql`now() - make_interval(days => ${VALID_DAYS})`),
      ),
    )
    .orderBy(emailOutbox.to, desc(emailOutbox.id));
  if (kept.length === 0) return 0;
  const waiting = await unconfirmed(kept.map((m) => m.to));
  const shown = kept.filter((m) => waiting.has(m.to.toLowerCase()));
  for (const mail of shown)
    announce(
      log,
      { mailId: mail.id, to: mail.to, subject: SUBJECT, block: mail.text },
      'waiting for its link to be opened (kept, not sent: no mail server is configured)',
    );
  return shown.length;
}
