import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * What a console may show before sign-in (GET /api/v2/deployment): where mail goes and which
 * links and sign-in buttons lead somewhere on this server (the documentation itself: docs.test.ts).
 */
describe('the deployment call', () => {
  let withSmtp: TestServer;
  let bare: TestServer;
  let configured: TestServer;

  beforeAll(async () => {
    [withSmtp, bare, configured] = await Promise.all([
      startTestServer(),
      startTestServer({ CUMULUS_SMTP_URL: '' }),
      startTestServer({
        CUMULUS_SUPPORT_EMAIL: 'help@example.org',
        CUMULUS_DOCS_URL: 'https://docs.example.org/cumulus',
        CUMULUS_COMMUNITY_URL: 'https://example.slack.com/join',
        CUMULUS_TERMS_URL: '/terms.html',
        CUMULUS_BOOK_DEMO_URL: 'https://example.org/demo',
        CUMULUS_HOSTED_SERVICE: 'true',
      }),
    ]);
  }, 180_000); // three servers migrating at once
  afterAll(async () => {
    await Promise.all([withSmtp?.close(), bare?.close(), configured?.close()]);
  });

  it('answers anyone, and by default offers only links that lead somewhere: the docs it serves itself', async () => {
    const res = await bare.api.get('/api/v2/deployment');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      public_url: 'http://cumulus.test',
      version: expect.any(String),
      mail: {
        delivery: 'server-log',
        detail: expect.stringMatching(/no mail server configured.*server’s log/),
      },
      links: {
        support_email: null,
        docs_url: '/docs',
        community_url: null,
        terms_url: null,
        book_demo_url: null,
      },
      // A self-hosted install greets no one with a survey or what's-new banners.
      hosted_service: false,
      sign_in_providers: [],
    });
  });

  it('says mail is sent when a mail server is configured', async () => {
    expect((await withSmtp.api.get('/api/v2/deployment')).body.mail.delivery).toBe('smtp');
  });

  it('answers the configured support address, docs, community, terms and demo links', async () => {
    expect((await configured.api.get('/api/v2/deployment')).body.hosted_service).toBe(true);
    expect((await configured.api.get('/api/v2/deployment')).body.links).toEqual({
      support_email: 'help@example.org',
      docs_url: 'https://docs.example.org/cumulus',
      community_url: 'https://example.slack.com/join',
      terms_url: '/terms.html',
      book_demo_url: 'https://example.org/demo',
    });
  });

  it('refuses links that could run script, and a support address that is not one, at start', () => {
    const base = { CUMULUS_SECRET: 'x'.repeat(40), CUMULUS_DATA_DIR: '/tmp/cumulus-config-test' };
    expect(() => loadConfig({ ...base, CUMULUS_DOCS_URL: 'javascript:alert(1)' })).toThrow(
      /CUMULUS_DOCS_URL must be an http\(s\) URL or a path starting with \//,
    );
    expect(() => loadConfig({ ...base, CUMULUS_COMMUNITY_URL: '//evil.example' })).toThrow(
      /CUMULUS_COMMUNITY_URL/,
    );
    expect(() => loadConfig({ ...base, CUMULUS_SUPPORT_EMAIL: 'support' })).toThrow(/CUMULUS_SUPPORT_EMAIL/);
    expect(loadConfig({ ...base, CUMULUS_DOCS_URL: '' }).links.docsUrl).toBe('/docs');
  });
});
