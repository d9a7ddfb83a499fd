import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, copyFile, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { LockedPackage } from '../db/schema/index.js';
import { final, retryable } from './backend.js';
import type { Builder, BuildIO, BuildRequest, BuildResult, BuildWheel } from './builder.js';
import { cannotBuild, type Interpreter, isSourceLine, normaliseProject } from './builder.js';
import { buildContainer, imageOfLocation, isContainerLocation } from './container-builder.js';
import type { Identity, LocalSandbox } from './local-sandbox.js';
import { pipConfigVariables } from './pip-config.js';
import type { Podman } from './podman.js';
import { metByInterpreter } from './requirements.js';

export interface LocalBuilderOptions {
  /** The interpreter environments are made from (CUMULUS_PYTHON); they see its packages, Dask among them. */
  python: string;
  /** Environments live under `<dataDir>/environments/`. */
  dataDir: string;
  /** The environment pip runs in: the server's own (HOME, PIP_* and pip's configuration files). */
  env: Record<string, string | undefined>;
  /** CUMULUS_PIP_INDEX_URL / CUMULUS_PIP_EXTRA_INDEX_URL: where pip looks instead of its own configuration. */
  indexUrl?: string | undefined;
  extraIndexUrl?: string | undefined;
  /** Who builds run as (pip runs packages' own build code): a uid of their own where it gives one. */
  sandbox?: LocalSandbox;
  /** Runs container environments (the image is the environment), where podman is configured. */
  podman?: Podman;
}

const ABOUT_INTERPRETER = `
import json, platform
from importlib.metadata import distributions
packages = {d.metadata["Name"]: d.version for d in distributions() if d.metadata["Name"]}
dashboard = None
try:
    import distributed.dashboard.core  # imports only with a bokeh this Dask can serve its dashboard with
except ImportError:
    try:
        from distributed import versions
        low, high = getattr(versions, "MIN_BOKEH_VERSION", None), getattr(versions, "MAX_BOKEH_VERSION", None)
        dashboard = "bokeh" + ",".join(([f">={low}"] if low else []) + ([f"<={high}"] if high else []))
    except ImportError:
        pass
print(json.dumps({"version": platform.python_version(), "machine": platform.machine(), "packages": packages, "dashboard": dashboard}))`;

/** What every virtual environment brings along; not part of what a spec asked for. */
const BOOTSTRAP = new Set(['pip', 'setuptools', 'wheel', 'distribute']);

/**
 * Builds a spec into a virtual environment on this machine: `venv --system-site-packages
 * --without-pip` from the server's interpreter (so Dask and pip come with it), then pip. Environments are stored by the hash
 * of their lockfile: a second build that resolves to the same packages reuses the first.
 */
export function createLocalBuilder(options: LocalBuilderOptions): Builder {
  const root = path.join(options.dataDir, 'environments');
  let about: Promise<Interpreter> | undefined;
  const readInterpreter = async (): Promise<Interpreter> => {
    const parsed = JSON.parse(await capture([options.python, '-c', ABOUT_INTERPRETER], pipEnv)) as {
      version: string;
      machine: string;
      packages: Record<string, string>;
      dashboard: string | null;
    };
    const packages = new Map(Object.entries(parsed.packages).map(([n, v]) => [normaliseProject(n), v]));
    return {
      version: parsed.version,
      architecture: parsed.machine,
      packages,
      dashboardRequirement: parsed.dashboard,
    };
  };
  let pipConfig: Promise<Record<string, string>> | undefined;
  const interpreter = (): Promise<Interpreter> => {
    if (!about) {
      about = readInterpreter();
      about.catch(() => {
        about = undefined; // read it again next time
      });
      // Read with it (the server reads the interpreter as it starts): builds run as a uid of their
      // own take the server's pip configuration, and a first build need not wait for pip to say it.
      void options.sandbox?.tenancy().then(
        (t) => {
          if (t.mode === 'users') pipConfig ??= pipConfigVariables(options.python, pipEnv);
        },
        () => undefined,
      );
    }
    return about;
  };
  const pipEnv = {
    ...options.env,
    PIP_NO_INPUT: '1',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PYTHONUNBUFFERED: '1',
    ...(options.indexUrl && { PIP_INDEX_URL: options.indexUrl }),
    ...(options.extraIndexUrl && { PIP_EXTRA_INDEX_URL: options.extraIndexUrl }),
  };

  return {
    kinds: options.podman ? ['pip', 'container'] : ['pip'],
    interpreter,
    forget: () => {
      about = undefined;
    },
    // In a container, the image's own python3 (the agent runs in it too).
    pythonOf: (location) =>
      isContainerLocation(location) ? 'python3' : path.join(location, 'bin', 'python'),
    remove: async (location) => {
      if (!isContainerLocation(location)) return rm(location, { recursive: true, force: true });
      // An image a running container uses stays; it goes with the next collection.
      await options.podman?.exec(['rmi', imageOfLocation(location)]).catch(() => undefined);
    },
    sizeOf: async (location) =>
      isContainerLocation(location)
        ? ((await options.podman?.inspect(imageOfLocation(location)).catch(() => null))?.sizeBytes ?? 0)
        : directorySize(location),

    async build(request: BuildRequest, io: BuildIO): Promise<BuildResult> {
      if (request.kind === 'container' && options.podman)
        return buildContainer(options.podman, request, (await interpreter()).architecture, io);
      if (request.kind !== 'pip') throw cannotBuild(request.kind, 'local');
      await mkdir(root, { recursive: true });
      const key = `build-${request.buildId}`;
      const who = (await options.sandbox?.identity(key)) ?? null;
      const work = path.join(root, `.build-${request.buildId}`);
      // Its home, temporary files and copies of the wheels: beside the environment, not in it.
      const home = path.join(root, `.home-${request.buildId}`);
      await rm(work, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
      try {
        await options.sandbox?.privateDir(work, who);
        await options.sandbox?.privateDir(home, who);
        const env = who ? await asUser(who, home) : pipEnv;
        const wheels = who ? await handOver(request.wheels, home, who) : request.wheels;
        const packages = await install({ ...request, wheels }, work, env, who, io);
        if (who) {
          // Nothing the build started outlives it, and nothing it made can change afterwards.
          await options.sandbox!.release(key);
          await options.sandbox!.seal(work);
        }
        return await keep(work, packages, io);
      } finally {
        await options.sandbox?.release(key);
        await rm(home, { recursive: true, force: true });
        await rm(work, { recursive: true, force: true });
      }
    },
  };

  /** The variables of a build run as `who`: its own home, and the server's pip configuration. */
  async function asUser(who: Identity, home: string): Promise<Record<string, string | undefined>> {
    pipConfig ??= pipConfigVariables(options.python, pipEnv);
    return { ...(await pipConfig), ...pipEnv, HOME: home, TMPDIR: home, USER: who.name, LOGNAME: who.name };
  }

  /** venv, then pip as the request says, in `work`: answers what it installed. */
  async function install(
    request: BuildRequest,
    work: string,
    env: Record<string, string | undefined>,
    who: Identity | null,
    io: BuildIO,
  ): Promise<LockedPackage[]> {
    io.log(`Creating a virtual environment from ${options.python} (its packages stay visible)`);
    // Without its own pip (ensurepip takes seconds): the interpreter's pip, visible through the
    // system site-packages, installs into the environment it is run from.
    await run([options.python, '-m', 'venv', '--system-site-packages', '--without-pip', work], env, io, who);
    const python = path.join(work, 'bin', 'python');
    const lines = request.lockfile
      ? request.lockfile.split('\n').filter((l) => l.trim() && !l.startsWith('#'))
      : [...request.requirements, ...request.wheels.map((w) => w.path)];
    const report = path.join(work, 'cumulus-install-report.json');
    const { packages: own } = await interpreter();
    // Comments and options alone install nothing, nor does what the interpreter has already (a
    // package sync from this machine): pip is not started for them.
    // Where pip would look (a package sync's indexes) does not matter then.
    const wanted = lines.filter((l) => !isSourceLine(l));
    if (!request.lockfile && wanted.length > 0 && wanted.every((l) => metByInterpreter(l, own))) {
      io.log(`The interpreter has all ${wanted.length} requirements already: nothing to install`);
    } else if (lines.some((l) => !/^\s*(#|-|$)/.test(l))) {
      const requirements = path.join(work, 'cumulus-requirements.txt');
      await writeFile(requirements, `${lines.join('\n')}\n`, { mode: 0o644 });
      io.log(`Installing ${lines.length} requirement${lines.length === 1 ? '' : 's'} with pip`);
      const args = [python, '-m', 'pip', 'install', '--progress-bar', 'off', '-r', requirements];
      for (const link of new Set(request.wheels.map((w) => path.dirname(w.path))))
        args.push('--find-links', link);
      if (request.lockfile) args.push('--no-deps');
      args.push('--report', report);
      await run(args, env, io, who);
    } else {
      io.log('Nothing to install beyond the interpreter and its packages');
    }
    return lockedPackages(work, report);
  }

  /** The environment in `work` kept under its lockfile's hash (or the one already there). */
  async function keep(work: string, packages: LockedPackage[], io: BuildIO): Promise<BuildResult> {
    const { version, architecture } = await interpreter();
    const header = `# cumulus lockfile: Python ${version} ${architecture} (${options.python}, its own packages visible)`;
    const lockfile = `${header}\n${packages.map((p) => `${p.name}==${p.version}`).join('\n')}\n`;
    const lockfileHash = createHash('sha256').update(lockfile).digest('hex');
    const location = path.join(root, lockfileHash.slice(0, 32));
    if (existsSync(location)) {
      io.log('An environment with exactly these packages exists already: reusing it');
    } else {
      await rename(work, location).catch(async (err: NodeJS.ErrnoException) => {
        // Another build finished the same environment first.
        if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
      });
    }
    return { location, lockfile, packages, lockfileHash, sizeBytes: await directorySize(location) };
  }
}

/** Copies of the wheels a build installs, in its home and its own: it reads nothing of the server's. */
async function handOver(wheels: readonly BuildWheel[], home: string, who: Identity): Promise<BuildWheel[]> {
  if (wheels.length === 0) return [];
  const dir = path.join(home, 'wheels');
  await mkdir(dir, { mode: 0o700 });
  await chown(dir, who.uid, who.gid);
  return Promise.all(
    wheels.map(async (wheel, i) => {
      // Each in a folder of its own: two wheels may share a file name (different workspaces' uploads).
      const own = path.join(dir, String(i));
      await mkdir(own, { mode: 0o700 });
      await chown(own, who.uid, who.gid);
      const copy = path.join(own, path.basename(wheel.path));
      await copyFile(wheel.path, copy);
      await chown(copy, who.uid, who.gid);
      return { ...wheel, path: copy };
    }),
  );
}

/**
 * What pip installed into the environment itself (not the interpreter's packages): the
 * `.dist-info` directories of its site-packages, read directly (`pip list` takes a second), with
 * hashes where pip's report has them.
 */
async function lockedPackages(environment: string, reportPath: string): Promise<LockedPackage[]> {
  const listed: Array<{ name: string; version: string }> = [];
  const libs = await readdir(path.join(environment, 'lib')).catch(() => [] as string[]);
  for (const lib of libs.filter((d) => d.startsWith('python'))) {
    const site = path.join(environment, 'lib', lib, 'site-packages');
    for (const entry of await readdir(site).catch(() => [] as string[])) {
      if (!entry.endsWith('.dist-info')) continue;
      const metadata = await readFile(path.join(site, entry, 'METADATA'), 'utf8').catch(() => '');
      const name = /^Name:\s*(.+)$/m.exec(metadata)?.[1]?.trim();
      const version = /^Version:\s*(.+)$/m.exec(metadata)?.[1]?.trim();
      if (name && version) listed.push({ name, version });
    }
  }
  const installed = new Map<string, { sha256: string | null; file: boolean }>();
  const report = await readFile(reportPath, 'utf8').catch(() => '');
  if (report) {
    const parsed = JSON.parse(report) as {
      install?: Array<{
        metadata?: { name?: string };
        download_info?: { url?: string; archive_info?: { hashes?: { sha256?: string }; hash?: string } };
      }>;
    };
    for (const item of parsed.install ?? []) {
      const name = item.metadata?.name;
      if (!name) continue;
      const info = item.download_info;
      const hash = info?.archive_info?.hashes?.sha256 ?? info?.archive_info?.hash?.replace(/^sha256=/, '');
      installed.set(normaliseProject(name), { sha256: hash ?? null, file: !!info?.url?.startsWith('file:') });
    }
  }
  return listed
    .filter((p) => !BOOTSTRAP.has(normaliseProject(p.name)))
    .map((p) => {
      const known = installed.get(normaliseProject(p.name));
      return {
        name: normaliseProject(p.name),
        version: p.version,
        source: known?.file ? ('file' as const) : ('index' as const),
        sha256: known?.sha256 ?? null,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Runs a command in its own process group, each output line to the log; pip's error is the failure's reason. */
function run(
  args: string[],
  env: Record<string, string | undefined>,
  io: BuildIO,
  who: Identity | null = null,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(who && { uid: who.uid, gid: who.gid, cwd: env.HOME }),
    });
    const tail: string[] = [];
    const take = (line: string) => {
      io.log(line);
      tail.push(line);
      if (tail.length > 60) tail.shift();
    };
    createInterface({ input: child.stdout! }).on('line', take);
    createInterface({ input: child.stderr! }).on('line', take);
    const abort = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    io.signal.addEventListener('abort', abort, { once: true });
    child.once('error', (err) => reject(final(`Cannot run ${args[0]}: ${err.message}`, err)));
    child.once('close', (code, signal) => {
      io.signal.removeEventListener('abort', abort);
      if (io.signal.aborted) return reject(retryable('The build was interrupted'));
      if (code === 0) return resolve();
      const errors = tail.filter((l) => /^ERROR:/.test(l)).map((l) => l.replace(/^ERROR:\s*/, ''));
      const why = errors.length > 0 ? errors.join(' ') : (tail.filter((l) => l.trim()).at(-1) ?? '');
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const name = args[1] === '-m' ? args[2]! : path.basename(args[0]!);
      reject(final(`${name} ${how}${why ? `: ${why}` : ''}`));
    });
  });
}

function capture(args: string[], env: Record<string, string | undefined>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(final(`${args.join(' ')} failed: ${err.trim()}`)),
    );
  });
}

async function directorySize(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(full);
    else total += (await lstat(full).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
