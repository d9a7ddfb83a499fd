import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { launchBrowser, openSession, type Session } from './browser';
import { type E2eServer, type E2eServerOptions, startE2eServer } from './server';

/**
 * One server (fresh database, SMTP sink) and one browser for a spec file; each test opens its own
 * sessions (contexts, one per person in the journey) with `open()`, closed after the test.
 * `options.env` adds server settings.
 */
export function consoleSuite(options: E2eServerOptions = {}) {
  let server: E2eServer | undefined;
  let browser: Browser | undefined;
  const sessions: Session[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2eServer(options), launchBrowser()]);
  });
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  return {
    get server(): E2eServer {
      if (!server) throw new Error('The server is not started yet (use it inside a test).');
      return server;
    },
    async open(viewport?: { width: number; height: number }): Promise<Session> {
      if (!server || !browser) throw new Error('The suite is not started yet (use it inside a test).');
      const session = await openSession(browser, server.base, viewport);
      sessions.push(session);
      return session;
    },
  };
}
