import { spawn } from 'node:child_process';
import { findInstanceProcesses, signalGroups } from '../../src/compute/local-processes.js';

/** Where and as what a rig's VM boots: the agent's address, its metadata server, its architecture. */
export interface VmBoot {
  workRoot: string;
  host: string;
  sshHome: string;
  metadataUrl: string;
  arch: string;
}

/**
 * Runs a VM's boot script (EC2's user-data, GCE's startup-script) here, detached, as the VM's
 * init would: the rigs' VMs are these process groups.
 */
export function bootScript(script: string, vm: VmBoot): void {
  const child = spawn('bash', ['-c', script], {
    detached: true,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      CUMULUS_WORK_DIR: vm.workRoot,
      CUMULUS_PYTHON: '/usr/bin/python3',
      CUMULUS_AGENT_HOST: vm.host,
      CUMULUS_SSH_HOME: vm.sshHome,
      CUMULUS_METADATA_URL: vm.metadataUrl,
      CUMULUS_SPOT_POLL_SECONDS: '0.5',
      CUMULUS_MACHINE_ARCH: vm.arch,
    },
  });
  child.unref();
}

/** What a VM ran, gone (TERM, then KILL after five seconds), as the machine going away. */
export async function killVm(backendId: string): Promise<void> {
  let processes = await findInstanceProcesses(backendId);
  if (processes.length === 0) return;
  signalGroups(processes, 'SIGTERM');
  for (let i = 0; i < 50 && processes.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    processes = await findInstanceProcesses(backendId);
  }
  if (processes.length > 0) signalGroups(processes, 'SIGKILL');
}
