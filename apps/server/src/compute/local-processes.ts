import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/** The variable every local instance (agent and Dask processes alike) carries in its environment. */
export const BACKEND_ID_VAR = 'CUMULUS_BACKEND_ID';

export interface LocalProcess {
  pid: number;
  pgid: number;
  backendId: string;
  /** Its real uid: a local instance runs as its cluster's (local-sandbox.ts), or as the server's. */
  uid: number;
}

/** Bumped whenever this server starts or signals a process: a scan begun before does not answer after. */
let generation = 0;
let shared: { generation: number; scan: Promise<LocalProcess[]> } | undefined;

/** Says that processes were started or signalled here: later callers get a scan of their own. */
export function processesChanged(): void {
  generation++;
}

/**
 * Live (not zombie) processes of local instances, found by the backend id in their environment.
 * Reading /proc rather than trusting a recorded pid survives pid reuse and server restarts, and
 * also finds children that outlived their agent.
 *
 * Callers at the same moment share one scan (a cluster's launches and stops ask for each of its
 * instances at once; each scan reads every process's environment), unless this server started or
 * signalled a process since that scan began.
 */
export async function findInstanceProcesses(backendId?: string): Promise<LocalProcess[]> {
  if (!shared || shared.generation !== generation) {
    const scan: Promise<LocalProcess[]> = scanProcesses().finally(() => {
      if (shared?.scan === scan) shared = undefined;
    });
    shared = { generation, scan };
  }
  const all = await shared.scan;
  return backendId === undefined ? all : all.filter((p) => p.backendId === backendId);
}

async function scanProcesses(): Promise<LocalProcess[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: LocalProcess[] = [];
  const needle = `\0${BACKEND_ID_VAR}=`;
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const pid = Number(name);
        if (pid === process.pid) return;
        const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
        const at = `\0${environ}`.indexOf(needle);
        if (at < 0) return;
        const stat = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '');
        // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (!fields[0] || fields[0] === 'Z' || fields[0] === 'X') return;
        const rest = environ.slice(at + BACKEND_ID_VAR.length + 1);
        const uid = uidOf(await readFile(`/proc/${pid}/status`, 'latin1').catch(() => ''));
        if (uid === null) return;
        found.push({ pid, pgid: Number(fields[2]), backendId: rest.slice(0, rest.indexOf('\0') >>> 0), uid });
      }),
  );
  return found;
}

/** Signals every process group of the given processes; groups already gone are skipped. */
export function signalGroups(processes: LocalProcess[], signal: NodeJS.Signals): void {
  processesChanged();
  for (const pgid of new Set(processes.map((p) => p.pgid))) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // Gone already.
    }
  }
  // A process that left its group (setsid) is still signalled on its own.
  for (const p of processes) {
    try {
      process.kill(p.pid, signal);
    } catch {
      // Gone already.
    }
  }
}

/** The real uid of a process from its /proc status (`Uid: real effective saved fs`). */
function uidOf(status: string): number | null {
  const match = /^Uid:\s+(\d+)/m.exec(status);
  return match ? Number(match[1]) : null;
}

/** Pids of the live processes whose real uid is `uid` (their /proc status, which no process can hide). */
export async function processesOfUid(uid: number): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: number[] = [];
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const status = await readFile(`/proc/${name}/status`, 'latin1').catch(() => '');
        if (uidOf(status) !== uid || /^State:\s+[ZX]/m.test(status)) return;
        found.push(Number(name));
      }),
  );
  return found;
}

/**
 * Ends every process of a uid, including those that left their instance's process group and
 * environment (a daemon a user's code started): `kill -9 -1` run as that uid signals all of them at
 * once (a fork racing it meets the next round), until none is left. Never the server's own uid.
 */
export async function endProcessesOf(uid: number): Promise<void> {
  if (uid === 0 || uid === process.getuid?.()) throw new Error(`Will not end the processes of uid ${uid}`);
  for (let round = 0; round < 100; round++) {
    if ((await processesOfUid(uid)).length === 0) return;
    processesChanged();
    await new Promise<void>((resolve) => {
      const child = spawn('kill', ['-KILL', '--', '-1'], {
        uid,
        gid: uid,
        stdio: 'ignore',
        env: { PATH: '/usr/bin:/bin' },
      });
      child.once('error', () => resolve());
      child.once('close', () => resolve());
    });
    await new Promise((r) => setTimeout(r, Math.min(20 * round, 200)));
  }
  throw new Error(`The processes of uid ${uid} could not be ended`);
}
