import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DescribeInstanceAttributeCommand, DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { findInstanceProcesses, signalGroups } from '../../src/compute/local-processes.js';

/**
 * Plays the machines of moto's EC2: every instance Cumulus launched that EC2 says is running is
 * "booted" by reading its user-data back from the EC2 API and running it here, as cloud-init
 * would on the VM (the agent it fetches phones home, Dask starts); an instance EC2 says is
 * terminated has its processes killed, as the VM going away would. Its own time is kept apart.
 */
export class Ec2Machines {
  readonly workRoot = mkdtempSync(path.join(tmpdir(), 'cumulus-vms-'));
  /** Milliseconds each boot took this helper (reading user-data and starting it). */
  readonly bootMs: number[] = [];
  readonly booted = new Map<string, { backendId: string }>();
  readonly killed = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  readonly #ec2: EC2Client;

  constructor(
    endpoint: string,
    credentials: { accessKeyId: string; secretAccessKey: string },
    region = 'us-east-1',
  ) {
    this.#ec2 = new EC2Client({ region, endpoint, credentials });
  }

  start(everyMs = 200): this {
    this.#timer = setInterval(() => {
      if (this.#busy) return;
      this.#busy = true;
      this.tick()
        .catch(() => undefined)
        .finally(() => {
          this.#busy = false;
        });
    }, everyMs);
    return this;
  }

  async tick(): Promise<void> {
    const answer = await this.#ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'tag-key', Values: ['cumulus:backend-id'] }] }),
    );
    for (const instance of answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? []) {
      const id = instance.InstanceId!;
      const backendId = instance.Tags?.find((t) => t.Key === 'cumulus:backend-id')?.Value ?? '';
      const state = instance.State?.Name;
      if (state === 'running' && !this.booted.has(id)) await this.boot(id, backendId);
      else if (
        (state === 'terminated' || state === 'shutting-down' || state === 'stopped') &&
        this.booted.has(id) &&
        !this.killed.has(id)
      ) {
        this.killed.add(id);
        await this.kill(backendId);
      }
    }
  }

  private async boot(instanceId: string, backendId: string): Promise<void> {
    const started = performance.now();
    this.booted.set(instanceId, { backendId });
    const attribute = await this.#ec2.send(
      new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }),
    );
    const script = Buffer.from(attribute.UserData?.Value ?? '', 'base64').toString('utf8');
    const child = spawn('bash', ['-c', script], {
      detached: true,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        CUMULUS_WORK_DIR: this.workRoot,
        CUMULUS_PYTHON: '/usr/bin/python3',
      },
    });
    child.unref();
    this.bootMs.push(performance.now() - started);
  }

  /** What the VM ran, gone (TERM, then KILL). */
  async kill(backendId: string): Promise<void> {
    let processes = await findInstanceProcesses(backendId);
    if (processes.length === 0) return;
    signalGroups(processes, 'SIGTERM');
    for (let i = 0; i < 50 && processes.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      processes = await findInstanceProcesses(backendId);
    }
    if (processes.length > 0) signalGroups(processes, 'SIGKILL');
  }

  /** Backend ids whose processes run here now. */
  async running(): Promise<Set<string>> {
    const ids = new Set([...this.booted.values()].map((b) => b.backendId));
    return new Set((await findInstanceProcesses()).map((p) => p.backendId).filter((id) => ids.has(id)));
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    for (const { backendId } of this.booted.values()) await this.kill(backendId);
    rmSync(this.workRoot, { recursive: true, force: true });
  }
}
