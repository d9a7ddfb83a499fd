import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database each test server's data directory starts from (a copy). */
    pgdataTemplate: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Once per run: builds the console and the server where their sources changed (the journeys run
 * the built server, as `npm start` does: no compiler in each server's start), and migrates one
 * embedded database the servers' data directories copy (initdb and the migrations: about five
 * seconds a server otherwise).
 */
export default function setup(project: TestProject): () => void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs', 'console', 'server'], {
    cwd: root,
    stdio: 'inherit',
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-e2e-template-'));
  const template = path.join(dir, 'pgdata');
  execFileSync(process.execPath, ['apps/server/scripts/migrated-pglite.mjs', template], {
    cwd: root,
    stdio: 'inherit',
  });
  project.provide('pgdataTemplate', template);
  return () => rmSync(dir, { recursive: true, force: true });
}
