import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client.js';
import { emailOutbox, type OutboxEmail } from '../db/schema/index.js';
import { announce } from '../lib/log.js';

const BATCH = 10;
const MAX_ATTEMPTS = 12;
/** While a mail is being sent it is leased; a crashed sender's lease runs out and another retries. */
const LEASE_SECONDS = 300;

export interface MailDelivery {
  /** Sends the due mails; answers whether there may be more. */
  deliverDue(): Promise<boolean>;
  close(): void;
}

export function createMailDelivery(
  db: Db,
  options: { smtpUrl: string | undefined; from: string },
  log: FastifyBaseLogger,
): MailDelivery {
  const transport: Transporter | null = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl, { from: options.from })
    : null;

  async function claim(): Promise<OutboxEmail[]> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, sql`now()`)))
        .orderBy(asc(emailOutbox.id))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(emailOutbox)
        .set({
          attempts: sql`${emailOutbox.attempts} + 1`,
          nextAttemptAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
        })
        .where(
          inArray(
            emailOutbox.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  async function deliver(mail: OutboxEmail): Promise<void> {
    if (!transport) {
      // No SMTP server configured: keep the mail and show it whole, links and all, where the person
      // who started the server looks (the console says so: modules/deployment), whatever the level.
      announce(
        log,
        { mailId: mail.id, to: mail.to, subject: mail.subject, block: mail.text },
        'email kept, not sent: no mail server is configured (CUMULUS_SMTP_URL)',
      );
      await db.update(emailOutbox).set({ status: 'kept' }).where(eq(emailOutbox.id, mail.id));
      return;
    }
    try {
      await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, from: options.from });
      await db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: new Date(), lastError: null })
        .where(eq(emailOutbox.id, mail.id));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const failed = mail.attempts >= MAX_ATTEMPTS;
      // 5 s, 10 s, 20 s ... capped at an hour.
      const backoff = Math.min(3600, 5 * 2 ** Math.max(0, mail.attempts - 1));
      log.warn({ mailId: mail.id, attempts: mail.attempts, error: message }, 'email delivery failed');
      await db
        .update(emailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          lastError: message.slice(0, 2000),
          nextAttemptAt: sql`now() + make_interval(secs => ${backoff})`,
        })
        .where(eq(emailOutbox.id, mail.id));
    }
  }

  return {
    async deliverDue() {
      const batch = await claim();
      for (const mail of batch) await deliver(mail);
      return batch.length === BATCH;
    },
    close() {
      transport?.close();
    },
  };
}
