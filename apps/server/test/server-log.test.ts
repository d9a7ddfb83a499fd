import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.js';
import { unconfirmedEmails } from '../src/domains/identity/index.js';
import { announce } from '../src/lib/log.js';
import { announceWaitingVerifications } from '../src/mail/waiting-verifications.js';
import { createClusterRow, createUser } from './helpers/factories.js';
import { captureLog } from './helpers/log-capture.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const capture = captureLog;

const KEPT = 'email kept, not sent: no mail server is configured (CUMULUS_SMTP_URL)';

describe('the log line format', () => {
  it('writes readable text: time, level, message, fields, then further lines indented', async () => {
    const { logger, lines, settled } = capture('text');
    logger.info({ database: 'pglite', smtp: 'none (mail kept in log)' }, 'Cumulus is running');
    logger.child({ reqId: 'r-1' }).warn({ attempts: 3 }, 'first line\nsecond line');
    logger.debug('below the level');
    await settled();
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO {2}Cumulus is running database=pglite smtp="none \(mail kept in log\)"\n$/,
    );
    expect(lines[1]).toMatch(/ WARN {2}first line attempts=3 reqId=r-1\n {4}second line\n$/);
    expect(lines).toHaveLength(2);
  });

  it('writes one JSON object a line with the json format', async () => {
    const { logger, lines, settled } = capture('json');
    logger.child({ reqId: 'r-2' }).error(new Error('it broke'), 'loop tick failed');
    await settled();
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!);
    expect(record).toMatchObject({ level: 'error', reqId: 'r-2', msg: 'loop tick failed' });
    expect(record.err).toMatchObject({ type: 'Error', message: 'it broke' });
    expect(record.err.stack).toContain('server-log.test.ts');
    expect(new Date(record.time).getTime()).toBeGreaterThan(0);
  });

  it('never writes a field that holds a credential', async () => {
    for (const format of ['text', 'json'] as const) {
      const { logger, lines, settled } = capture(format);
      logger.info({ authorization: 'ApiToken abc-SECRET1', password: 'SECRET2', apiKey: 'SECRET3' }, 'hello');
      await settled();
      expect(lines.join('')).not.toMatch(/SECRET/);
      expect(lines.join('')).toContain('[hidden]');
    }
  });
});

describe('request logs', () => {
  const text = capture('text');
  const json = capture('json');
  let ts: TestServer;
  let jsonServer: TestServer;

  beforeAll(async () => {
    ts = await startTestServer({ CUMULUS_SMTP_URL: '' }, { logger: text.logger });
    jsonServer = await startTestServer({ CUMULUS_LOG_FORMAT: 'json' }, { logger: json.logger });
  });
  afterAll(async () => {
    await ts?.close();
    await jsonServer?.close();
  });

  it('are one line per API request, without the query string or credentials; health stays quiet', async () => {
    const user = await createUser(ts);
    text.lines.length = 0;
    await ts.api.get('/api/health');
    await ts.api.get('/api/v1/health');
    await ts.api.as(user.key).get('/api/v2/user/me', { query: { signature: 'SECRET-IN-QUERY' } });
    await ts.api.get('/api/v2/logs/cluster/1/page/SECRET-IN-PATH');
    await ts.api.get('/api/v2/test/raise-exception/');
    await text.settled();
    const requests = text.lines.filter((l) => / (GET|POST) \//.test(l));
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatch(/ INFO {2}GET \/api\/v2\/user\/me 200 ms=[\d.]+ reqId=[\w-]+\n$/);
    expect(requests[1]).toMatch(/ INFO {2}GET \/api\/v2\/logs\/cluster\/:pk\/page\/:encoded_session 401 /);
    expect(requests[2]).toMatch(/ ERROR GET \/api\/v2\/test\/raise-exception\/ 500 /);
    const all = text.lines.join('');
    expect(all).not.toMatch(/SECRET|GET \/api\/(v1\/)?health/);
    expect(all).not.toContain(user.key);
  });

  it("log the calls clusters make at debug: they do not bury a person's requests", async () => {
    const user = await createUser(ts);
    const workspace = (await ts.api.as(user.key).get('/api/v2/user/me')).body.default_account;
    const cluster = await createClusterRow(ts, workspace, user);
    const token = ts.server.deps.secrets.decrypt(cluster.tokenBox);
    const heartbeat = `/api/v2/cluster_facing/instance/${cluster.name}-worker-0123456789/state`;
    const asCluster = { headers: { authorization: `Bearer ${token}` } };
    const debug = capture('text', 'debug');
    const verbose = await startTestServer({ CUMULUS_LOG_LEVEL: 'debug' }, { logger: debug.logger });
    try {
      text.lines.length = 0;
      for (const server of [ts, verbose]) {
        await server.api.get(heartbeat, asCluster);
        await server.api.get(heartbeat);
        await server.api.as(user.key).get('/api/v2/user/me');
      }
      await text.settled();
      const cumulus = text.lines.filter((l) => / GET \//.test(l));
      expect(cumulus).toHaveLength(1);
      expect(cumulus[0]).toMatch(/ INFO {2}GET \/api\/v2\/user\/me /);
      // Still there for whoever asks for debug.
      const machine = debug.lines.filter((l) => l.includes('GET /api/v2/cluster_facing/'));
      expect(machine).toHaveLength(2);
      for (const line of machine) expect(line).toMatch(/ DEBUG GET \/api\/v2\/cluster_facing\/instance\//);
    } finally {
      await verbose.close();
    }
  });

  it('print the confirmation links still waiting again at the end of start-up, without a mail server', async () => {
    const username = `waiting${Date.now()}`;
    const body = { username, email: `${username}@example.com`, password1: 'Quiet-river-stones-7' };
    expect(
      (await ts.api.post('/api/v1/registration/', { ...body, password2: body.password1, full_name: 'W' }))
        .status,
    ).toBe(201);
    ts.server.deps.loops.wake('mail-outbox');
    const kept = () => text.lines.find((l) => l.includes(KEPT) && l.includes(body.email));
    await expect.poll(kept, { timeout: 30_000, interval: 50 }).toBeTruthy();

    const unconfirmed = (emails: string[]) => unconfirmedEmails(ts.server.deps.db, emails);
    const start = capture('text');
    await announceWaitingVerifications(ts.server.deps.db, start.logger, unconfirmed);
    await start.settled();
    const again = start.lines.filter((l) => l.includes(body.email));
    expect(again).toHaveLength(1);
    expect(again[0]).toMatch(/ INFO {2}waiting for its link to be opened \(kept, not sent: no mail server/);
    expect(again[0]).toMatch(/subject="Confirm your email address for Cumulus"/);
    expect(again[0]).toMatch(/\n {4}│ http:\/\/cumulus\.test\/\S+\n/);

    // Once confirmed, it is not printed again.
    await ts.server.deps.db
      .update(users)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(users.username, username));
    const later = capture('text');
    await announceWaitingVerifications(ts.server.deps.db, later.logger, unconfirmed);
    await later.settled();
    expect(later.lines.filter((l) => l.includes(body.email))).toEqual([]);
  });

  it('are structured with CUMULUS_LOG_FORMAT=json', async () => {
    json.lines.length = 0;
    await jsonServer.api.get('/api/v2/user/me', { headers: { authorization: 'Token not-a-key' } });
    await json.settled();
    const records = json.lines.map((l) => JSON.parse(l));
    expect(records).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        method: 'GET',
        path: '/api/v2/user/me',
        status: 401,
        reqId: expect.any(String),
        ms: expect.any(Number),
      }),
    ]);
    expect(json.lines.join('')).not.toContain('not-a-key');
  });

  it('print a mail kept without SMTP as one framed block with its links, apart from the request lines', async () => {
    const user = await createUser(ts);
    text.lines.length = 0;
    await ts.api.post('/api/v1/auth/password/reset/', { email: user.email });
    ts.server.deps.loops.wake('mail-outbox');
    // The sign-up's own confirmation mail may be delivered in the same round: find the reset's.
    const reset = () =>
      text.lines.find((l) => l.includes('email kept') && l.includes('Reset your Cumulus password'));
    await expect.poll(reset, { timeout: 30_000, interval: 50 }).toBeTruthy();
    const block = reset()!;
    expect(block).toMatch(
      new RegExp(
        `^\\S+ INFO {2}email kept, not sent: no mail server is configured \\(CUMULUS_SMTP_URL\\) mailId=\\d+ to=${user.email} subject="Reset your Cumulus password"\\n {4}┌─+\\n`,
      ),
    );
    // Every line of the mail inside the frame, the link alone on its line; then the frame closes.
    expect(block).toMatch(/\n {4}│ Hello \S+,\n/);
    expect(block).toMatch(/\n {4}│ http:\/\/cumulus\.test\/\S*reset-password\/key\/\S+\n/);
    expect(block).toMatch(/\n {4}└─+\n$/);
    expect(block).not.toMatch(/\\n|^\{|block=/);
  });

  it('keep a kept mail whole in its JSON record', async () => {
    const { logger, lines, settled } = capture('json');
    logger.info({ mailId: 1, to: 'a@example.com', block: 'Hello,\n\nhttp://x/y' }, 'email kept');
    await settled();
    expect(JSON.parse(lines[0]!)).toMatchObject({ to: 'a@example.com', block: 'Hello,\n\nhttp://x/y' });
  });
});

describe('a kept email, whatever the log level and format', () => {
  const mail = {
    mailId: 7,
    to: 'a@example.com',
    subject: 'Confirm',
    block: 'Hello,\n\nhttp://x/confirm/abc',
  };
  const framedLink = /\n {4}│ http:\/\/x\/confirm\/abc\n/;

  it('is printed as one framed block at every level but silent', async () => {
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
      const { logger, lines, text, settled } = capture('text', level);
      announce(logger, mail, KEPT);
      logger.info('an ordinary line');
      await settled();
      const kept = lines.filter((line) => line.includes(KEPT));
      expect(kept, level).toHaveLength(1);
      expect(kept[0]).toMatch(framedLink);
      // Only what the level lets through besides.
      expect(
        lines.some((line) => line.includes('an ordinary line')),
        level,
      ).toBe(['trace', 'debug', 'info'].includes(level));
      expect(text).toEqual([]);
    }
    const { logger, lines, text, settled } = capture('text', 'silent');
    announce(logger, mail, KEPT);
    await settled();
    expect([...lines, ...text]).toEqual([]);
  });

  it('is a JSON record in the JSON log and a readable block beside it', async () => {
    const { logger, lines, text, settled } = capture('json', 'error');
    announce(logger.child({ loop: 'mail-outbox' }), mail, KEPT);
    await settled();
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'info', msg: KEPT, to: 'a@example.com', block: mail.block }),
    ]);
    expect(text).toHaveLength(1);
    expect(text[0]).toMatch(
      new RegExp(`^\\S+ INFO {2}${KEPT.replace(/[()]/g, '\\$&')} mailId=7 to=a@example.com`),
    );
    expect(text[0]).toMatch(framedLink);
    expect(text[0]).not.toMatch(/\\n|^\{/);
  });

  it('comes out of a server with JSON lines at level error, the link readable, no request line', async () => {
    const quiet = capture('json', 'error');
    const server = await startTestServer(
      { CUMULUS_SMTP_URL: '', CUMULUS_LOG_FORMAT: 'json', CUMULUS_LOG_LEVEL: 'error' },
      { logger: quiet.logger },
    );
    try {
      const user = await createUser(server);
      await server.api.post('/api/v1/auth/password/reset/', { email: user.email });
      server.server.deps.loops.wake('mail-outbox');
      const reset = () =>
        quiet.text.find((l) => l.includes(KEPT) && l.includes('Reset your Cumulus password'));
      await expect.poll(reset, { timeout: 30_000, interval: 50 }).toBeTruthy();
      expect(reset()).toMatch(/\n {4}│ http:\/\/cumulus\.test\/\S*reset-password\/key\/\S+\n/);
      const records = quiet.lines.map((line) => JSON.parse(line));
      expect(records.some((r) => r.msg === KEPT && r.subject === 'Reset your Cumulus password')).toBe(true);
      expect(records.some((r) => r.msg === 'request')).toBe(false);
    } finally {
      await server.close();
    }
  });
});
