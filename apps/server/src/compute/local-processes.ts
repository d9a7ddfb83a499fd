import { readdir, readFile } from 'node:fs/promises';

/** The variable every local instance (agent and Dask processes alike) carries in its environment. */
export const BACKEND_ID_VAR = 'CUMULUS_BACKEND_ID';

export interface LocalProcess {
  pid: number;
  pgid: number;
  backendId: string;
}

/**
 * Live (not zombie) processes of local instances, found by the backend id in their environment.
 * Reading /proc rather than trusting a recorded pid survives pid reuse and server restarts, and
 * also finds children that outlived their agent.
 */
export async function findInstanceProcesses(backendId?: string): Promise<LocalProcess[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: LocalProcess[] = [];
  const needle = backendId ? `${BACKEND_ID_VAR}=${backendId}\0` : `${BACKEND_ID_VAR}=`;
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const pid = Number(name);
        if (pid === process.pid) return;
        const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
        const at = `\0${environ}`.indexOf(`\0${needle}`);
        if (at < 0) return;
        const stat = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '');
        // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (!fields[0] || fields[0] === 'Z' || fields[0] === 'X') return;
        const rest = environ.slice(at + BACKEND_ID_VAR.length + 1);
        found.push({ pid, pgid: Number(fields[2]), backendId: rest.slice(0, rest.indexOf('\0') >>> 0) });
      }),
  );
  return found;
}

/** Signals every process group of the given processes; groups already gone are skipped. */
export function signalGroups(processes: LocalProcess[], signal: NodeJS.Signals): void {
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
