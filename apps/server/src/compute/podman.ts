import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { final, retryable } from './errors.js';

/** Where the credentials of a private registry come from: the workspace's `setup/.../docker`. */
export interface RegistryLogin {
  /** The registry's host (`registry.example.com:5000`); images on it are pulled with these. */
  registry: string;
  username: string;
  password: string;
}

export interface PodmanOptions {
  /** The podman program (CUMULUS_PODMAN). */
  podman: string;
  /** OCI runtime (CUMULUS_CONTAINER_RUNTIME): `auto` tries podman's own, then runc. */
  runtime: 'auto' | 'runc' | 'crun';
}

/** What an image is, as podman inspects it. */
export interface ImageFacts {
  id: string;
  /** `amd64`, `arm64`: podman's words for the image's architecture. */
  architecture: string;
  entrypoint: string[];
  sizeBytes: number;
}

/**
 * The flags every container of the product runs with. The open-file and process limits are given
 * explicitly: on hosts whose cgroup setup podman cannot read limits from (hybrid cgroup v1/v2),
 * containers otherwise fail to start with an error about rlimits.
 */
const LIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];

/**
 * Podman as the product uses it: pull (credentials in a private auth file, never on a command
 * line another user could read in /proc), inspect, and run. Which OCI runtime works is found once:
 * podman's default first, then runc (crun cannot start containers on some cgroup setups); when
 * neither can, the error says what the host needs.
 */
export class Podman {
  private runtime: Promise<string[]> | undefined;

  constructor(private readonly options: PodmanOptions) {}

  /** `--runtime X` where podman's default runtime cannot run containers here; checked once. */
  runtimeFlags(image: string): Promise<string[]> {
    if (this.options.runtime !== 'auto') return Promise.resolve(['--runtime', this.options.runtime]);
    this.runtime ??= this.findRuntime(image);
    this.runtime.catch(() => {
      this.runtime = undefined;
    });
    return this.runtime;
  }

  private async findRuntime(image: string): Promise<string[]> {
    const errors: string[] = [];
    for (const flags of [[], ['--runtime', 'runc'], ['--runtime', 'crun']]) {
      const probe = await this.exec(['run', '--rm', ...flags, ...LIMITS, '--entrypoint', 'true', image]).then(
        () => null,
        (err: Error) => err.message,
      );
      if (probe === null) return flags;
      errors.push(`${flags[1] ?? "podman's default runtime"}: ${probe.split('\n').slice(-2).join(' ')}`);
    }
    throw final(
      `Containers cannot run on this machine: podman could not start one with any runtime (${errors.join('; ')}). ` +
        'The host needs a working OCI runtime for podman (runc or crun) and cgroup access; see docs/software.md#containers.',
    );
  }

  /** Pulls an image (with the registry's login where it has one); answers its facts. */
  async pull(image: string, login: RegistryLogin | null, signal?: AbortSignal): Promise<ImageFacts> {
    // A registry on plain HTTP (a local one) is allowed where podman's registries.conf says so.
    await this.pullWith(image, login, signal).catch((err: Error) => {
      throw pullError(image, err.message, login !== null);
    });
    return await this.inspect(image);
  }

  /** `pull --quiet IMAGE`, the login in a private auth file made for it and removed after. */
  protected async pullWith(image: string, login: RegistryLogin | null, signal?: AbortSignal): Promise<void> {
    const dir = login ? await mkdtemp(path.join(tmpdir(), 'cumulus-auth-')) : null;
    try {
      const args = ['pull', '--quiet'];
      if (dir && login) {
        const authfile = path.join(dir, 'auth.json');
        await writeFile(authfile, authFile(login), { mode: 0o600 });
        args.push('--authfile', authfile);
      }
      await this.exec([...args, image], signal);
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  }

  async inspect(image: string): Promise<ImageFacts> {
    // Its default output, a JSON array, is the same in podman and docker.
    const out = await this.exec(['image', 'inspect', image]);
    const [facts] = JSON.parse(out) as {
      Id: string;
      Architecture?: string;
      Size?: number;
      Config?: { Entrypoint?: string[] | null };
    }[];
    if (!facts) throw final(`Image ${image} was pulled but podman cannot inspect it`);
    return {
      id: facts.Id,
      architecture: facts.Architecture ?? '',
      entrypoint: facts.Config?.Entrypoint ?? [],
      sizeBytes: facts.Size ?? 0,
    };
  }

  /** Runs `python3 -c script` in the image (through its entrypoint where asked); answers stdout. */
  async python(image: string, script: string, useEntrypoint: boolean, signal?: AbortSignal): Promise<string> {
    const runtime = await this.runtimeFlags(image);
    const entry = useEntrypoint ? [] : ['--entrypoint', '[]'];
    return this.exec(
      ['run', '--rm', ...runtime, ...LIMITS, '--network', 'none', ...entry, image, 'python3', '-c', script],
      signal,
    );
  }

  /** Flags that run a container as the product runs instances (runtime, limits, no privileges). */
  async runFlags(image: string): Promise<string[]> {
    return [
      ...(await this.runtimeFlags(image)),
      ...LIMITS,
      '--security-opt',
      'no-new-privileges',
      '--cap-drop',
      'all',
    ];
  }

  get program(): string {
    return this.options.podman;
  }

  /** Removes a container by name, if there is one. */
  async remove(name: string): Promise<void> {
    await this.exec(['rm', '--force', '--ignore', name]).catch(() => undefined);
  }

  exec(args: string[], signal?: AbortSignal): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.podman, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(signal && { signal }),
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      child.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          e.code === 'ENOENT'
            ? final(`podman is not installed on this machine (${this.options.podman}): containers need it`)
            : e,
        ),
      );
      child.once('close', (code) =>
        code === 0 ? resolve(out) : reject(new Error(err.trim() || out.trim() || `podman exited ${code}`)),
      );
    });
  }
}

/** A containers auth file (podman's `--authfile`, docker's config.json) with one registry's login. */
export function authFile(login: RegistryLogin): string {
  const auth = Buffer.from(`${login.username}:${login.password}`).toString('base64');
  return JSON.stringify({ auths: { [login.registry]: { auth } } });
}

/** A pull's failure in words: not found, not allowed (with or without credentials), or unreachable. */
function pullError(image: string, message: string, hadLogin: boolean) {
  const last = message.split('\n').filter(Boolean).slice(-1)[0] ?? message;
  if (/unauthorized|authentication required|denied|401|403/i.test(message))
    return final(
      hadLogin
        ? `The registry refused the workspace's credentials for ${image}: ${last}`
        : `${image} is private: set the workspace's registry credentials (Setup → Docker registry) to pull it. (${last})`,
    );
  if (/manifest unknown|not found|name unknown|404/i.test(message))
    return final(`Image ${image} was not found in its registry: ${last}`);
  if (/connection refused|no such host|timeout|i\/o timeout|network is unreachable/i.test(message))
    return retryable(`The registry of ${image} could not be reached: ${last}`);
  return final(`podman could not pull ${image}: ${last}`);
}
