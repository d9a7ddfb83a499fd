import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { startTestServer } from './helpers/server.js';
import { ServerProcess } from './helpers/server-process.js';

/** Operators are never locked out of staff: CUMULUS_STAFF_EMAILS at every start, and the admin CLI. */
const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/** `npm run admin -- ...` as the CLI runs it, on the settings `env`. */
function admin(env: Record<string, string>, ...args: string[]) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin.ts', ...args], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('operators and staff', () => {
  it('CUMULUS_STAFF_EMAILS makes an existing user staff at the next start', async () => {
    const database = await openTestDatabase();
    try {
      const first = await startTestServer({}, { database });
      const user = await createUser(first);
      expect((await first.api.as(user.key).get('/api/v2/staff/users')).status).toBe(403);
      await first.close();

      const second = await startTestServer(
        { CUMULUS_STAFF_EMAILS: `someone-else@example.com, ${user.email.toUpperCase()}` },
        { database },
      );
      try {
        expect((await second.api.as(user.key).get('/api/v2/staff/users')).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  }, 120_000);

  it('npm run admin -- make-staff makes a user staff on a stopped server, and says what it cannot do', async () => {
    const server = await ServerProcess.create();
    try {
      await server.seedToken();
      await server.start();
      const email: string = (await server.call('GET', '/api/v2/user/me')).body.email;
      expect((await server.call('GET', '/api/v2/staff/users')).status).toBe(403);
      if (!server.env.DATABASE_URL) {
        // The embedded database is the running server's: one line says what to do.
        const refused = await admin(server.env, 'make-staff', email);
        expect(refused.code).toBe(1);
        expect(refused.err.trim().split('\n')).toHaveLength(1);
        expect(refused.err).toContain(`the server (pid ${server.child!.pid}) has the embedded database`);
      }
      await server.kill('SIGTERM');

      const unknown = await admin(server.env, 'make-staff', 'nobody@example.com');
      expect(unknown).toMatchObject({ code: 1, err: 'admin: no user has the email nobody@example.com\n' });
      const made = await admin(server.env, 'make-staff', email);
      expect(made).toMatchObject({ code: 0, out: `${email} is staff now\n` });

      await server.start();
      expect((await server.call('GET', '/api/v2/staff/users')).status).toBe(200);
    } finally {
      await server.cleanup();
    }
  }, 300_000);
});
