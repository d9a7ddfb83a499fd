import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../src/db/schema/index.js';
import { enqueueEmail } from '../src/mail/outbox.js';
import { createUser, uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { SmtpSink } from './helpers/smtp.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

// Under load (CI shares two cores with Dask and a browser) a fresh server and the first delivery
// attempt take seconds, so every wait here is generous; nothing depends on speed.
const WAIT = { timeout: 60_000, interval: 200 };

describe('the mail outbox', { timeout: 180_000 }, () => {
  it('keeps a mail that cannot be delivered and sends it once the SMTP server is back', async () => {
    // An SMTP address nobody listens on yet.
    const later = new SmtpSink();
    const probe = await later.start();
    await later.stop();
    const ts = await startTestServer({ CUMULUS_SMTP_URL: probe });
    servers.push(ts);
    const to = `${uniq()}@example.com`;
    await enqueueEmail(ts.server.deps.db, { to, subject: 'Hello', text: 'Body' });
    ts.server.deps.loops.wake('mail-outbox');

    const row = async () =>
      (await ts.server.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, to)))[0]!;
    // The loop counts the attempt when it claims the mail and records the error after: wait for both.
    await expect.poll(async () => (await row()).lastError, WAIT).toBeTruthy();
    expect((await row()).status).toBe('pending');
    expect((await row()).attempts).toBeGreaterThan(0);

    // The SMTP server comes back where the outbox expects it.
    const sink = new SmtpSink();
    await sink.start(Number(new URL(probe).port));
    await ts.server.deps.db
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date() })
      .where(eq(emailOutbox.to, to));
    ts.server.deps.loops.wake('mail-outbox');
    const mail = await sink.waitFor(to, () => true, WAIT.timeout);
    expect(mail.subject).toBe('Hello');
    await expect.poll(async () => (await row()).status, WAIT).toBe('sent');
    await sink.stop();
  });

  it('without SMTP keeps mail readable for staff', async () => {
    const ts = await startTestServer({ CUMULUS_SMTP_URL: '' });
    servers.push(ts);
    const staff = await createUser(ts, { staff: true });
    const user = await createUser(ts);
    await ts.api.post('/api/v1/auth/password/reset/', { email: user.email });
    await expect
      .poll(async () => {
        const res = await ts.api.as(staff.key).get('/api/v2/staff/emails');
        return res.body.items.find((m: { to: string }) => m.to === user.email)?.status;
      }, WAIT)
      .toBe('kept');
    const list = await ts.api.as(staff.key).get('/api/v2/staff/emails');
    expect(list.body.items[0].text).toMatch(/reset-password\/key\//);
    expect((await ts.api.as(user.key).get('/api/v2/staff/emails')).status).toBe(403);
  });
});
