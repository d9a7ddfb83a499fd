import { createHash } from 'node:crypto';
import { access, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { final, retryable } from './backend.js';
import type { ArchiveStore, Builder, BuildIO, BuildRequest, BuildResult, Interpreter } from './builder.js';
import { cannotBuild } from './builder.js';

/** What a build machine is started with: it calls the control plane back with the token. */
export interface RemoteBuildJob {
  buildId: number;
  /** The workspace whose build it is (where a cloud builder launches the machine); 0: unknown. */
  workspaceId: number;
  kind: BuildRequest['kind'];
  /** The machines the environment is for (x86_64, aarch64): the build machine is one of them. */
  architecture: string;
  token: string;
  serverUrl: string;
}

export interface RemoteBuilderOptions {
  /** The backend's name in reasons (`vm_aws`...). */
  backend: string;
  kinds: readonly BuildRequest['kind'][];
  /** Starts a machine that runs `python -m cumulus.agent.build` (or its equivalent) for the job; `log` to the build's log. */
  launch(job: RemoteBuildJob, log: (line: string) => void): Promise<void>;
  /** Stops the job's machine (the build was interrupted or ended); must not fail when it is gone. */
  stop(job: RemoteBuildJob): Promise<void>;
  /** The Python environments are made from, as the build machines have it. */
  interpreter(): Promise<Interpreter>;
  /** The interpreter of an environment where that backend's instances unpack it. */
  pythonOf(location: string): string;
  /**
   * Whether the job's machine is still at it: null while it is, else why not (the end of its log),
   * which fails the build when the machine said nothing of its end. Looked at every `endedEveryMs`.
   * Absent: the build waits for the machine's report (or the build loop's timeout).
   */
  ended?(job: RemoteBuildJob): Promise<string | null>;
  endedEveryMs?: number;
  /** How often the build's phone-home is looked at. */
  pollMs?: number;
  /**
   * Instances download the archive and unpack it at boot (a cloud backend): the archive is kept
   * under its content hash (`env-<lockfile sha256>.tar.gz` beside the upload), so builds that
   * resolve to the same packages share one archive, and `location` is that file.
   */
  unpackedAtBoot?: boolean;
  /** Builds are per architecture (the build machine is of the build's): see Builder.perArchitecture. */
  perArchitecture?: boolean;
  /**
   * Where archives are kept outside this server (vm_gcp's bucket): an upload into it is kept there
   * under its content hash instead of on this server's disk.
   */
  archives?: ArchiveStore;
}

/**
 * What the backends whose machines keep the account's home (SSH hosts, Slurm's shared home) build
 * with: pip only, archives each instance unpacks under `~/.cumulus/environments/<hash>`
 * (python/cumulus/agent/software.py). The machines' Python is not read here: nothing is left out of
 * a build for being on the server's, and no default environment is made for a dashboard these
 * backends do not serve.
 */
export const UNPACKED_IN_HOME = {
  kinds: ['pip'],
  unpackedAtBoot: true,
  interpreter: async (): Promise<Interpreter> => ({
    version: '',
    architecture: '',
    packages: new Map(),
    dashboardRequirement: null,
  }),
  pythonOf: (location: string) =>
    path.posix.join(
      '~/.cumulus/environments',
      path.basename(location).replace(/^env-|\.tar\.gz$/g, ''),
      'bin/python',
    ),
} satisfies Partial<RemoteBuilderOptions>;

/**
 * A builder whose builds run on another machine (a cloud VM of the workspace's account): it
 * launches the machine, which fetches the spec with its build token, reports its log and state
 * (phone-home) and uploads the environment's archive; the build ends when the machine says it
 * has. The build loop stays the only writer of the build's state.
 */
export function createRemoteBuilder(options: RemoteBuilderOptions): Builder {
  const pollMs = options.pollMs ?? 1000;
  return {
    kinds: options.kinds,
    ...(options.unpackedAtBoot && { unpackedAtBoot: true }),
    ...(options.perArchitecture && { perArchitecture: true }),
    ...(options.archives && { archives: options.archives }),
    interpreter: options.interpreter,
    forget: () => {},
    pythonOf: options.pythonOf,
    // An archive in a store outside this server is deleted by garbage collection through the store.
    remove: (location) =>
      options.archives?.owns(location) ? Promise.resolve() : rm(location, { force: true }),
    sizeOf: async (location) => (await stat(location).catch(() => ({ size: 0 }))).size,

    async build(request: BuildRequest, io: BuildIO): Promise<BuildResult> {
      if (!options.kinds.includes(request.kind)) throw cannotBuild(request.kind, options.backend);
      const job = {
        buildId: request.buildId,
        workspaceId: request.workspaceId ?? 0,
        kind: request.kind,
        architecture: request.architecture ?? 'x86_64',
        token: io.remote.token,
        serverUrl: io.remote.serverUrl,
      };
      io.log(`Starting a build machine on the ${options.backend} backend`);
      await options.launch(job, io.log);
      let lookedAt = Date.now();
      try {
        for (;;) {
          if (io.signal.aborted) throw retryable('The build was interrupted');
          let report = await io.remote.report();
          if (options.ended && report?.state !== 'built' && report?.state !== 'error') {
            if (Date.now() - lookedAt >= (options.endedEveryMs ?? 10_000)) {
              lookedAt = Date.now();
              const why = await options.ended(job);
              // It may have reported just before it ended.
              if (why !== null) report = await io.remote.report();
              if (why !== null && report?.state !== 'built' && report?.state !== 'error')
                throw final(`The build stopped without reporting its end: ${why}`);
            }
          }
          if (report?.state === 'error') throw final(report.reason || 'The build machine reported an error.');
          if (report?.state === 'built') {
            const uploaded = report.location ?? report.archive;
            if (!uploaded || !report.lockfile)
              throw final(
                'The build machine said it had built the environment but sent no lockfile or archive.',
              );
            // The lockfile names the architecture it was built on: builds for two share no archive.
            const built = lockfileArchitecture(report.lockfile);
            if (options.perArchitecture && built !== job.architecture)
              throw final(
                `The build machine built the environment for ${built ?? 'an unnamed architecture'}, not ${job.architecture}.`,
              );
            const lockfileHash = createHash('sha256').update(report.lockfile).digest('hex');
            const stored = options.archives?.owns(uploaded)
              ? await options.archives.keep(job.workspaceId, uploaded, lockfileHash, io.log)
              : null;
            const location =
              stored?.location ??
              (options.unpackedAtBoot ? await byContent(uploaded, lockfileHash, io.log) : uploaded);
            return {
              location,
              lockfile: report.lockfile,
              packages: report.packages ?? [],
              lockfileHash,
              sizeBytes:
                stored?.sizeBytes ??
                report.sizeBytes ??
                (await stat(location).catch(() => ({ size: 0 }))).size,
            };
          }
          await sleep(pollMs, undefined, { signal: io.signal }).catch(() => undefined);
        }
      } finally {
        await options
          .stop(job)
          .catch((err: unknown) => io.log(`Could not stop the build machine: ${String(err)}`));
      }
    },
  };
}

/**
 * The uploaded archive kept under its content hash: where an identical environment's archive is
 * there already, that one is kept and the upload dropped.
 */
async function byContent(uploaded: string, lockfileHash: string, log: (line: string) => void) {
  const target = path.join(path.dirname(uploaded), `env-${lockfileHash}.tar.gz`);
  if (uploaded === target) return target;
  const exists = await access(target).then(
    () => true,
    () => false,
  );
  if (exists) {
    await rm(uploaded, { force: true });
    log(
      `The same packages were built before: reusing that environment archive (${lockfileHash.slice(0, 12)})`,
    );
  } else await rename(uploaded, target);
  return target;
}

/** The architecture a lockfile's header names (`# cumulus lockfile: Python 3.11.2 aarch64 (...)`). */
function lockfileArchitecture(lockfile: string): string | null {
  return /^# cumulus lockfile: Python \S+ (\S+)/.exec(lockfile)?.[1] ?? null;
}

/** What the Python of a cloud's images is taken to be where it cannot be looked at before a machine boots. */
const UNKNOWN_INTERPRETER: Interpreter = {
  version: '',
  architecture: '',
  packages: new Map(),
  dashboardRequirement: null,
};

/**
 * A VM cloud's builder's interpreter (vm_aws, vm_gcp): the Python the images are taken to have (the
 * server's own, where the operator says the images match, else unknown); its dashboard requirement
 * dropped, since the clouds' images serve the dashboard themselves.
 */
export const vmInterpreter = (known?: () => Promise<Interpreter>) => async (): Promise<Interpreter> => ({
  ...((await known?.().catch(() => null)) ?? UNKNOWN_INTERPRETER),
  dashboardRequirement: null,
});
