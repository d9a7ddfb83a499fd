import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findInstanceProcesses } from '../../../src/compute/local-processes.js';
import { bootScript, killVm } from '../vm-boot.js';
import type { Instance } from './instances.js';
import type { GceRig } from './rig.js';

/**
 * Plays the rig's VMs: an instance that reaches RUNNING is "booted" by running its metadata's
 * `startup-script` here, as the guest environment would on the VM, its agent bound to the
 * instance's internal address (the rig's subnet lies in 127.0.0.0/8, so nothing is added to the
 * loopback device); an instance deleted, stopped or preempted has its processes killed. Each VM
 * reads its own metadata server (`CUMULUS_METADATA_URL`, the `computeMetadata/v1` tree: instance
 * attributes, the default service account's token, the `preempted` flag), which insists on
 * `Metadata-Flavor: Google` as Google's does.
 */
export class GceMachines {
  readonly workRoot = mkdtempSync(path.join(tmpdir(), 'cumulus-gce-vms-'));
  /** Booted VMs by instance name: the backend id its startup script runs under and the address it binds. */
  readonly booted = new Map<string, { backendId: string; host: string; instance: Instance }>();
  #metadata: Server | undefined;
  #metadataUrl = '';
  readonly #pending = new Set<Promise<void>>();

  constructor(readonly rig: GceRig) {}

  async start(): Promise<this> {
    const server = createServer((request, response) =>
      this.serve(request.url ?? '/', request.headers, response),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.#metadata = server;
    this.#metadataUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    this.rig.instances.on('running', (instance) => this.track(this.boot(instance)));
    this.rig.instances.on('deleted', (instance) => this.track(this.kill(instance.name)));
    return this;
  }

  private track(work: Promise<void>): void {
    this.#pending.add(work);
    work.catch(() => undefined).finally(() => this.#pending.delete(work));
  }

  private attribute(instance: Instance, key: string): string | undefined {
    return instance.metadata.items?.find((i) => i.key === key)?.value;
  }

  private serve(url: string, headers: Record<string, unknown>, response: ServerResponse): void {
    if (headers['metadata-flavor'] !== 'Google') {
      response.writeHead(403, { 'content-type': 'text/html' }).end('Missing Metadata-Flavor:Google header.');
      return;
    }
    const [, name, ...rest] = url.split('?')[0]!.split('/');
    const vm = this.booted.get(name ?? '');
    const body = vm ? this.metadataOf(vm.instance, `/${rest.join('/')}`) : undefined;
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    const type = body.startsWith('{') ? 'application/json' : 'application/text';
    response.writeHead(200, { 'content-type': type, 'metadata-flavor': 'Google' }).end(body);
  }

  /** A metadata path's value for the VM, undefined where Google's server has none. */
  private metadataOf(instance: Instance, route: string): string | undefined {
    const attr = /^\/computeMetadata\/v1\/instance\/attributes\/(.+)$/.exec(route);
    if (attr) return this.attribute(instance, decodeURIComponent(attr[1]!));
    switch (route) {
      case '/computeMetadata/v1/instance/preempted':
        return instance.preempted ? 'TRUE' : 'FALSE';
      case '/computeMetadata/v1/instance/name':
        return instance.name;
      case '/computeMetadata/v1/instance/id':
        return instance.id;
      case '/computeMetadata/v1/project/project-id':
        return this.rig.project;
      case '/computeMetadata/v1/instance/service-accounts/default/token':
        return JSON.stringify({
          access_token: this.rig.tokens.issue('424242424242-compute@developer.gserviceaccount.com'),
          expires_in: 3599,
          token_type: 'Bearer',
        });
      default:
        return undefined;
    }
  }

  private async boot(instance: Instance): Promise<void> {
    const script = this.attribute(instance, 'startup-script');
    const host = instance.networkInterfaces[0]?.networkIP ?? '127.0.0.1';
    const backendId = instance.labels?.['cumulus-backend-id'] ?? instance.name;
    this.booted.set(instance.name, { backendId, host, instance });
    if (!script) return;
    const arch =
      (instance.disks as { architecture?: string }[])[0]?.architecture === 'ARM64' ? 'aarch64' : 'x86_64';
    const sshHome = path.join(this.workRoot, 'home', instance.name);
    this.addSshKeys(instance, sshHome);
    bootScript(script, {
      workRoot: this.workRoot,
      host,
      sshHome,
      metadataUrl: `${this.#metadataUrl}/${instance.name}`,
      arch,
    });
  }

  /**
   * Google's guest environment: the keys of the `ssh-keys` metadata (`USER:KEY` a line) go into
   * their user's authorized_keys (the VM's one sign-in home here), before the startup script runs.
   */
  private addSshKeys(instance: Instance, home: string): void {
    const keys = (this.attribute(instance, 'ssh-keys') ?? '')
      .split('\n')
      .map((line) => /^([a-z_][a-z0-9_-]*):(\S+ \S+)/.exec(line.trim()))
      .filter((m): m is RegExpExecArray => m !== null);
    if (keys.length === 0) return;
    mkdirSync(path.join(home, '.ssh'), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(home, '.ssh', 'authorized_keys'), keys.map((m) => `${m[2]}\n`).join(''), {
      mode: 0o600,
    });
    this.sshUsers.set(
      instance.name,
      keys.map((m) => m[1]!),
    );
  }

  /** The users the guest environment made from `ssh-keys`, by instance name. */
  readonly sshUsers = new Map<string, string[]>();

  /** What the VM ran, gone (TERM, then KILL). */
  async kill(name: string): Promise<void> {
    const vm = this.booted.get(name);
    if (vm) await killVm(vm.backendId);
  }

  /** Backend ids whose processes run here now. */
  async running(): Promise<Set<string>> {
    const ids = new Set([...this.booted.values()].map((b) => b.backendId));
    return new Set((await findInstanceProcesses()).map((p) => p.backendId).filter((id) => ids.has(id)));
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
    for (const name of this.booted.keys()) await this.kill(name);
    this.#metadata?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.#metadata ? this.#metadata.close(() => resolve()) : resolve(),
    );
    rmSync(this.workRoot, { recursive: true, force: true });
  }
}
