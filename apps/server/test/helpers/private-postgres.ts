import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './wait.js';

const run = promisify(execFile);
const ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin directory, or null when none is installed. */
export function postgresBinaries(): string | null {
  if (!existsSync(ROOT)) return null;
  const versions = readdirSync(ROOT)
    .filter((v) => existsSync(path.join(ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(ROOT, versions[0], 'bin') : null;
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory on a free port, that the test
 * may stop and start at will (the machine's shared PostgreSQL is never touched). PostgreSQL
 * refuses to run as root, so as root it runs as the `postgres` user.
 */
export class PrivatePostgres {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'cumulus-pg-'));
  readonly data = path.join(this.dir, 'data');

  private constructor(
    private readonly bin: string,
    readonly port: number,
    private readonly asUser: string[],
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(bin: string): Promise<PrivatePostgres> {
    const root = process.getuid?.() === 0;
    const pg = new PrivatePostgres(bin, await freePort(), root ? ['runuser', '-u', 'postgres', '--'] : []);
    if (root) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(pg.dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await pg.#pg('initdb', ['-D', pg.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    return pg;
  }

  async #pg(tool: string, args: string[]) {
    const [command, ...rest] = [...this.asUser, path.join(this.bin, tool), ...args];
    return run(command!, rest, { cwd: this.dir, timeout: 60_000 });
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await this.#pg('pg_ctl', [
      '-D',
      this.data,
      '-o',
      options,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }

  /** A fast shutdown, as an operator's restart does: sessions are ended, clients see errors. */
  async stop(): Promise<void> {
    await this.#pg('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop().catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}
