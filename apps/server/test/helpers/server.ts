import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import type { App } from '../../src/http/app-types.js';
import { createServer, type Server, type ServerOptions } from '../../src/server.js';
import { Api } from './api.js';
import { openTestDatabase } from './database.js';
import { killLeftoverInstances } from './leftover-instances.js';
import { SmtpSink } from './smtp.js';

export interface TestServer {
  server: Server;
  app: App;
  smtp: SmtpSink;
  api: Api;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app on a real database of its own (see openTestDatabase; pass `database` to share
 * one between servers). Mail goes to a real SMTP sink.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: ServerOptions = {},
): Promise<TestServer> {
  const smtp = new SmtpSink();
  const smtpUrl = await smtp.start();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-test-'));
  const config = loadConfig({
    CUMULUS_DATA_DIR: dataDir,
    CUMULUS_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    CUMULUS_SMTP_URL: smtpUrl,
    CUMULUS_PUBLIC_URL: 'http://cumulus.test',
    CUMULUS_WEB_DIST: path.join(dataDir, 'no-console'),
    // Clusters run on the interpreter unless a test asks for the default environment.
    CUMULUS_DEFAULT_ENVIRONMENT: 'off',
    CUMULUS_WARM_PROCESSES: '0',
    // No test reaches Google: a test that saves GCP keys points this at its GCE rig.
    CUMULUS_GCP_TOKEN_URL: 'http://127.0.0.1:9/token',
    CUMULUS_GCP_COMPUTE_URL: 'http://127.0.0.1:9',
    CUMULUS_GCP_STORAGE_URL: 'http://127.0.0.1:9',
    CUMULUS_GCP_RESOURCE_MANAGER_URL: 'http://127.0.0.1:9',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  const database: Database = options.database ?? (await openTestDatabase());
  const server = await createServer(config, { ...options, database });
  // A test server reads the interpreter when a build first needs it, not at every start (a Python
  // process importing Dask per test file adds minutes to the suite).
  server.startLoops({ readInterpreter: false });
  return {
    server,
    app: server.app,
    smtp,
    api: new Api(server.app),
    dataDir,
    async close() {
      await server.close();
      // As a listening server's close waits for its connections' requests: none reads a closed database.
      await Api.settled(server.app);
      await killLeftoverInstances(dataDir);
      if (!options.database) await database.close();
      await smtp.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
