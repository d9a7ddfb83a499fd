import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  DescribeImagesCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  EC2Client,
  type Instance,
} from '@aws-sdk/client-ec2';
import { findInstanceProcesses } from '../../src/compute/local-processes.js';
import { HELPER_HEADER } from './moto.js';
import { bootScript, killVm } from './vm-boot.js';

const run = promisify(execFile);
/**
 * The lock's name: an abstract Unix socket, which lives in the network namespace, as the
 * addresses VMs take do (two runs of the suite with separate temporary folders still share them).
 */
const LOCK_SOCKET = '\0cumulus-ec2-machines';

/**
 * One helper's VMs at a time on this machine: every moto server hands out the same private
 * addresses, which VMs here take on the loopback device, so two test files (or two runs of the
 * suite) booting VMs at once would take (and, stopping, remove) each other's, and a client would
 * reach another run's scheduler. Held until `stop()`; the kernel frees it when its holder dies.
 */
async function takeMachineLock(): Promise<() => void> {
  for (;;) {
    const server = createServer((socket) => socket.destroy());
    const taken = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        err.code === 'EADDRINUSE' ? resolve(false) : reject(err),
      );
      server.listen(LOCK_SOCKET, () => resolve(true));
    });
    if (taken) return () => server.close();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What the internet gateway forwards from a VM's public address to its private one (the security group's ports). */
const FORWARDED_PORTS = [8786, 8787];

/**
 * Plays the machines of moto's EC2: every instance Cumulus launched that EC2 says is running is
 * "booted" by reading its user-data back from the EC2 API and running it here, as cloud-init
 * would on the VM (the agent it fetches phones home, Dask starts); an instance EC2 says is
 * terminated has its processes killed, as the VM going away would. Its own time is kept apart.
 *
 * Where it may (root: `ip addr add`), each VM gets EC2's addresses on this machine: its private
 * address on the loopback device, which the agent binds to (CUMULUS_AGENT_HOST, as a VM's own
 * interface), and its public address forwarded to the private one on the security group's ports,
 * as AWS's internet gateway does. A client then reaches a scheduler only through the address the
 * API answers. Where it may not, `addressProblem` says why and each VM binds a loopback address
 * of its own (127.x.y.z). A VM says it is of its image's architecture (CUMULUS_MACHINE_ARCH: an
 * arm64 image's VM builds "aarch64" environments), though it runs this machine's code.
 */
export class Ec2Machines {
  readonly workRoot = mkdtempSync(path.join(tmpdir(), 'cumulus-vms-'));
  /** Milliseconds each boot took this helper (reading user-data and starting it). */
  readonly bootMs: number[] = [];
  /**
   * Booted VMs by EC2 instance id: the address its agent binds, EC2's public address, and the home
   * of the user clients sign in as (its `.ssh/authorized_keys` is where the user-data puts the cluster's key).
   */
  readonly booted = new Map<
    string,
    { backendId: string; host: string; publicIp: string | null; home: string }
  >();
  readonly killed = new Set<string>();
  /** Why VMs could not get EC2's addresses here (null: they do). */
  addressProblem: string | null = null;
  /** Connections the gateway forwarded, by `publicIp:port`. */
  readonly gatewayConnections = new Map<string, number>();
  /** Spot interruption notices served to VMs, by EC2 instance id (what `interrupt` gave). */
  readonly #notices = new Map<string, { action: string; time: string }>();
  #metadata: { server: HttpServer; url: string } | undefined;
  readonly #archs = new Map<string, Promise<string>>();
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  readonly #ec2: EC2Client;
  readonly #added: string[] = [];
  readonly #gateways: Server[] = [];
  readonly #forwarded = new Set<Socket>();
  #release: (() => void) | undefined;

  constructor(
    endpoint: string,
    credentials: { accessKeyId: string; secretAccessKey: string },
    region = 'us-east-1',
  ) {
    this.#ec2 = new EC2Client({ region, endpoint, credentials });
    // Through the tests' EC2 proxy these calls are the helper's, not Cumulus's: not counted.
    this.#ec2.middlewareStack.add(
      (next) => (args) => {
        const request = args.request as { headers?: Record<string, string> };
        if (request.headers) request.headers[HELPER_HEADER] = '1';
        return next(args);
      },
      { step: 'build', name: 'cumulusTestHelperHeader' },
    );
  }

  /** The machine's VMs for this test file alone (see takeMachineLock), booting as EC2 says they run. */
  static async open(
    endpoint: string,
    credentials: { accessKeyId: string; secretAccessKey: string },
  ): Promise<Ec2Machines> {
    const release = await takeMachineLock();
    const machines = new Ec2Machines(endpoint, credentials);
    machines.#release = release;
    return machines.start();
  }

  /** Whether VMs get EC2's own addresses on this machine. */
  get realAddresses(): boolean {
    return this.addressProblem === null;
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
      if (state === 'running' && !this.booted.has(id)) await this.boot(instance, backendId);
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

  /**
   * EC2's notice to a spot instance that it will be taken back in two minutes, as its instance
   * metadata serves it (IMDSv2: `PUT /latest/api/token`, then `spot/instance-action`, 404 before).
   */
  interrupt(instanceId: string): void {
    this.#notices.set(instanceId, {
      action: 'terminate',
      time: new Date(Date.now() + 120_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    });
  }

  /** The instance metadata service of every VM here, each under its own path (`/<instance id>`). */
  private async metadataUrl(): Promise<string> {
    if (this.#metadata) return this.#metadata.url;
    const server = createHttpServer((request, response) => {
      const [, instanceId, ...rest] = (request.url ?? '').split('/');
      const route = `/${rest.join('/')}`;
      if (request.method === 'PUT' && route === '/latest/api/token') {
        response.end(`token-${instanceId}`);
      } else if (request.headers['x-aws-ec2-metadata-token'] !== `token-${instanceId}`) {
        response.writeHead(401).end();
      } else if (route === '/latest/meta-data/spot/instance-action' && this.#notices.has(instanceId!)) {
        response.setHeader('content-type', 'text/plain');
        response.end(JSON.stringify(this.#notices.get(instanceId!)));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as { port: number };
    this.#metadata = { server, url: `http://127.0.0.1:${port}` };
    return this.#metadata.url;
  }

  private async boot(instance: Instance, backendId: string): Promise<void> {
    const started = performance.now();
    const instanceId = instance.InstanceId!;
    const metadata = `${await this.metadataUrl()}/${instanceId}`;
    const host = await this.network(instance);
    const home = path.join(this.workRoot, 'home', instanceId);
    this.booted.set(instanceId, { backendId, host, publicIp: instance.PublicIpAddress ?? null, home });
    const attribute = await this.#ec2.send(
      new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }),
    );
    const script = Buffer.from(attribute.UserData?.Value ?? '', 'base64').toString('utf8');
    const arch = await this.archOf(instance.ImageId);
    bootScript(script, { workRoot: this.workRoot, host, sshHome: home, metadataUrl: metadata, arch });
    this.bootMs.push(performance.now() - started);
  }

  /** The VM's architecture: its image's, as platform.machine() would say it on the VM (one DescribeImages per image). */
  private archOf(imageId: string | undefined): Promise<string> {
    const key = imageId ?? '';
    let arch = this.#archs.get(key);
    if (!arch) {
      arch = (
        imageId
          ? this.#ec2.send(new DescribeImagesCommand({ ImageIds: [imageId] })).then((a) => a.Images?.[0])
          : Promise.resolve(undefined)
      ).then(
        (image) => (image?.Architecture === 'arm64' ? 'aarch64' : (image?.Architecture ?? 'x86_64')),
        () => 'x86_64',
      );
      this.#archs.set(key, arch);
    }
    return arch;
  }

  /** The address the VM's agent binds: EC2's private one where it can be made real here. */
  private async network(instance: Instance): Promise<string> {
    const privateIp = instance.PrivateIpAddress;
    if (this.realAddresses && privateIp) {
      try {
        await this.addAddress(privateIp);
        const publicIp = instance.PublicIpAddress;
        if (publicIp) {
          await this.addAddress(publicIp);
          for (const port of FORWARDED_PORTS) await this.gateway(publicIp, privateIp, port);
        }
        return privateIp;
      } catch (err) {
        this.addressProblem = `cannot give VMs EC2's addresses here: ${(err as Error).message.trim()}`;
      }
    }
    // 127.0.0.0/8 is all loopback: a VM of its own without privileges.
    const n = this.booted.size + 2;
    return `127.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
  }

  private async addAddress(ip: string): Promise<void> {
    try {
      await run('ip', ['addr', 'add', `${ip}/32`, 'dev', 'lo']);
      this.#added.push(ip);
    } catch (err) {
      // Another VM of this moto (or a run before) has it already: fine, but not ours to remove.
      // iproute2 says "File exists", or, with newer kernels, "Address already assigned".
      if (!/File exists|already assigned/.test(String((err as { stderr?: string }).stderr))) throw err;
    }
  }

  /** Forwards publicIp:port to privateIp:port (the internet gateway's NAT). */
  private gateway(publicIp: string, privateIp: string, port: number): Promise<void> {
    const server = createServer((inbound) => {
      const key = `${publicIp}:${port}`;
      this.gatewayConnections.set(key, (this.gatewayConnections.get(key) ?? 0) + 1);
      const outbound = createConnection({ host: privateIp, port });
      inbound.pipe(outbound).pipe(inbound);
      this.#forwarded.add(inbound).add(outbound);
      const end = () => {
        inbound.destroy();
        outbound.destroy();
        this.#forwarded.delete(inbound);
        this.#forwarded.delete(outbound);
      };
      inbound.on('close', end);
      outbound.on('close', end);
      inbound.on('error', end);
      outbound.on('error', end);
    });
    this.#gateways.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, publicIp, () => resolve());
    });
  }

  /** What the VM ran, gone (TERM, then KILL). */
  kill(backendId: string): Promise<void> {
    return killVm(backendId);
  }

  /** Backend ids whose processes run here now. */
  async running(): Promise<Set<string>> {
    const ids = new Set([...this.booted.values()].map((b) => b.backendId));
    return new Set((await findInstanceProcesses()).map((p) => p.backendId).filter((id) => ids.has(id)));
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    for (const { backendId } of this.booted.values()) await this.kill(backendId);
    for (const socket of this.#forwarded) socket.destroy();
    for (const server of this.#gateways) await new Promise<void>((resolve) => server.close(() => resolve()));
    this.#metadata?.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.#metadata ? this.#metadata.server.close(() => resolve()) : resolve(),
    );
    for (const ip of this.#added)
      await run('ip', ['addr', 'del', `${ip}/32`, 'dev', 'lo']).catch(() => undefined);
    rmSync(this.workRoot, { recursive: true, force: true });
    this.#release?.();
    this.#release = undefined;
  }
}
