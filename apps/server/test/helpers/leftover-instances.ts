import { readFile } from 'node:fs/promises';
import { findInstanceProcesses, signalGroups } from '../../src/compute/local-processes.js';

/**
 * Kills what is left of the local instances a test server launched under `dataDir`. A server that
 * stops leaves its clusters running, to be adopted at its next start, and their agents wait for it
 * for CUMULUS_AGENT_UNREACHABLE_SECONDS (30 minutes): a finished test must not leave them behind.
 */
export async function killLeftoverInstances(dataDir: string): Promise<void> {
  const left = [];
  for (const p of await findInstanceProcesses()) {
    const environ = await readFile(`/proc/${p.pid}/environ`, 'latin1').catch(() => '');
    if (environ.includes(dataDir)) left.push(p);
  }
  signalGroups(left, 'SIGKILL');
}
