import { createHash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { final, retryable } from './backend.js';
import type { Builder, BuildIO, BuildRequest, BuildResult, Interpreter } from './builder.js';
import { cannotBuild } from './builder.js';

/** What a build machine is started with: it calls the control plane back with the token. */
export interface RemoteBuildJob {
  buildId: number;
  kind: BuildRequest['kind'];
  token: string;
  serverUrl: string;
}

export interface RemoteBuilderOptions {
  /** The backend's name in reasons (`vm_aws`...). */
  backend: string;
  kinds: readonly BuildRequest['kind'][];
  /** Starts a machine that runs `python -m cumulus.agent.build` (or its equivalent) for the job. */
  launch(job: RemoteBuildJob): Promise<void>;
  /** Stops the job's machine (the build was interrupted or ended); must not fail when it is gone. */
  stop(job: RemoteBuildJob): Promise<void>;
  /** The Python environments are made from, as the build machines have it. */
  interpreter(): Promise<Interpreter>;
  /** The interpreter of an environment where that backend's instances unpack it. */
  pythonOf(location: string): string;
  /** How often the build's phone-home is looked at. */
  pollMs?: number;
}

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
    interpreter: options.interpreter,
    forget: () => {},
    pythonOf: options.pythonOf,
    remove: (location) => rm(location, { force: true }),
    sizeOf: async (location) => (await stat(location).catch(() => ({ size: 0 }))).size,

    async build(request: BuildRequest, io: BuildIO): Promise<BuildResult> {
      if (!options.kinds.includes(request.kind)) throw cannotBuild(request.kind, options.backend);
      const job = {
        buildId: request.buildId,
        kind: request.kind,
        token: io.remote.token,
        serverUrl: io.remote.serverUrl,
      };
      io.log(`Starting a build machine on the ${options.backend} backend`);
      await options.launch(job);
      try {
        for (;;) {
          if (io.signal.aborted) throw retryable('The build was interrupted');
          const report = await io.remote.report();
          if (report?.state === 'error') throw final(report.reason || 'The build machine reported an error.');
          if (report?.state === 'built') {
            const location = report.location ?? report.archive;
            if (!location || !report.lockfile)
              throw final(
                'The build machine said it had built the environment but sent no lockfile or archive.',
              );
            return {
              location,
              lockfile: report.lockfile,
              packages: report.packages ?? [],
              lockfileHash: createHash('sha256').update(report.lockfile).digest('hex'),
              sizeBytes: report.sizeBytes ?? (await stat(location).catch(() => ({ size: 0 }))).size,
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
