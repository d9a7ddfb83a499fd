import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { BackendError, type Backends, describeFailure } from '../../compute/backend.js';
import { type Builder, type BuildRequest, isSourceLine } from '../../compute/builder.js';
import type { RegistryLogin } from '../../compute/podman.js';
import type { Db } from '../../db/client.js';
import {
  packageFiles,
  type SoftwareSpec,
  softwareAliases,
  softwareBuildLogs,
  softwareBuilds,
  softwareSpecs,
} from '../../db/schema/index.js';
import type { Loops } from '../../deps.js';
import { randomHex, sha256 } from '../../lib/crypto.js';
import { withoutCredentials } from '../../lib/redact.js';
import { type LoopDomain, loopRows } from '../../loops/runner.js';
import { DEFAULT_ENVIRONMENT } from './default-environment.js';
import { packageFilePath } from './files.js';

export interface BuildLoopContext {
  db: Db;
  loops: Loops;
  backends: Backends;
  dataDir: string;
  /** The control plane's address as build machines reach it. */
  serverUrl: string;
  log: FastifyBaseLogger;
  /** A build ended (built or failed): the clusters waiting for it look again now (given by server.ts). */
  buildEnded(buildId: number): Promise<void>;
  /** The workspace's login for the registry an image is on, if it set one up (given by server.ts). */
  registryLogin?(workspaceId: number, image: string): Promise<RegistryLogin | null>;
}

/** A build that runs longer than this is stopped and fails. */
const BUILD_TIMEOUT_MS = 60 * 60_000;
/** Log lines are written in batches: every this many ms or lines, whichever comes first. */
const LOG_FLUSH_MS = 250;
const LOG_FLUSH_LINES = 200;

/**
 * Software builds as a domain of the loop runner. Queued builds are claimed one or two at a time
 * (builds are heavy), leased while they run; a build found `building` was cut off by a server that
 * stopped, and starts again. A build ends `built` or `error` and is settled.
 */
export function buildDomain(ctx: BuildLoopContext): LoopDomain {
  return {
    name: 'software-builds',
    rows: { ...loopRows(softwareBuilds), where: sql`${softwareBuilds.state} in ('queued', 'building')` },
    reconcile: (id, context) => runBuild(ctx, id, context.signal),
    backoff: { initialMs: 5_000, capMs: 5 * 60_000, describeError: describeFailure },
    intervalMs: 5_000,
    leaseMs: 60_000,
    concurrency: 2,
  };
}

async function runBuild(ctx: BuildLoopContext, buildId: number, signal: AbortSignal): Promise<null> {
  const { db } = ctx;
  const row = await buildWithSpec(db, buildId);
  if (!row || (row.build.state !== 'queued' && row.build.state !== 'building')) return null;
  const { build, spec } = row;
  const logs = new LogWriter(db, buildId);
  if (build.state === 'building')
    logs.add('This build was interrupted when its server stopped: starting it again.');
  // Every attempt has a token of its own: a machine of an earlier attempt can no longer report.
  const token = `cbt_${randomHex(24)}`;
  await db
    .update(softwareBuilds)
    .set({
      state: 'building',
      reason: '',
      started: new Date(),
      ended: null,
      tokenHash: sha256(token),
      report: null,
    })
    .where(eq(softwareBuilds.id, buildId));
  const remote = {
    token,
    serverUrl: ctx.serverUrl,
    report: async () =>
      (
        await db
          .select({ report: softwareBuilds.report })
          .from(softwareBuilds)
          .where(eq(softwareBuilds.id, buildId))
      )[0]?.report ?? null,
  };
  try {
    const backend = await ctx.backends.forWorkspace(build.workspaceId);
    if (!backend.builder)
      throw new BackendError(`The ${backend.type} backend cannot build software environments.`, false);
    const request = {
      ...(await buildRequest(ctx, buildId, spec, build.fromLockfile)),
      workspaceId: build.workspaceId,
      architecture: build.architecture,
      ...(spec.containerUri && {
        container: {
          image: spec.containerUri,
          useEntrypoint: spec.useEntrypoint,
          login: (await ctx.registryLogin?.(build.workspaceId, spec.containerUri)) ?? null,
        },
      }),
    };
    const deadline = AbortSignal.timeout(BUILD_TIMEOUT_MS);
    const io = { log: (line: string) => logs.add(line), signal: AbortSignal.any([signal, deadline]), remote };
    const fallback = await withoutDashboard(ctx.db, backend.builder, spec, request);
    let note = '';
    let result: Awaited<ReturnType<typeof backend.builder.build>>;
    try {
      result = await backend.builder.build(request, io);
    } catch (err) {
      // The default environment does without the dashboard rather than fail (no index has the bokeh).
      if (!fallback || io.signal.aborted || (err instanceof BackendError && err.retryable)) throw err;
      note = fallback.note;
      logs.add(note);
      result = await backend.builder.build(fallback.request, io);
    }
    if (deadline.aborted)
      throw new BackendError(`The build took longer than ${BUILD_TIMEOUT_MS / 60_000} minutes.`, false);
    logs.add(
      `Built: ${result.packages.length} package${result.packages.length === 1 ? '' : 's'} installed, ` +
        `${(result.sizeBytes / 2 ** 20).toFixed(1)} MiB at ${result.location}`,
    );
    await logs.close();
    await db
      .update(softwareBuilds)
      .set({
        state: 'built',
        reason: note,
        lockfile: result.lockfile,
        lockedPackages: result.packages,
        lockfileHash: result.lockfileHash,
        location: result.location,
        sizeBytes: result.sizeBytes,
        archivedAt: null,
        ended: new Date(),
      })
      .where(eq(softwareBuilds.id, buildId));
    await buildEnded(ctx, buildId);
    return null;
  } catch (err) {
    if (signal.aborted || (err instanceof BackendError && err.retryable)) {
      // Interrupted (the server stops, the lease was lost) or a passing fault: the runner tries again.
      logs.add(`The build stopped: ${describeFailure(err)}`);
      await logs.close();
      throw err;
    }
    const reason = withoutCredentials(describeFailure(err));
    logs.add(`The build failed: ${reason}`);
    await logs.close();
    await db
      .update(softwareBuilds)
      .set({ state: 'error', reason: reason.slice(0, 4000), ended: new Date() })
      .where(eq(softwareBuilds.id, buildId));
    await buildEnded(ctx, buildId);
    return null;
  }
}

/**
 * The clusters waiting for this build look again: those that run it, and those that run a build
 * of the same spec for another architecture (a cluster of two architectures waits for both).
 */
async function buildEnded(ctx: BuildLoopContext, buildId: number): Promise<void> {
  const siblings = await ctx.db
    .select({ id: softwareBuilds.id })
    .from(softwareBuilds)
    .where(
      sql`${softwareBuilds.specId} = (select spec_id from software_builds where id = ${buildId}) and ${softwareBuilds.architecture} <> (select architecture from software_builds where id = ${buildId})`,
    );
  for (const id of [buildId, ...siblings.map((b) => b.id)]) await ctx.buildEnded(id);
}

/**
 * For the workspace's default environment (`cumulus-default`, made by the server for the Dask
 * dashboard's bokeh): the same request without that bokeh, and the one calm line that says so, to
 * build when the bokeh cannot be installed. Null for every other build.
 */
async function withoutDashboard(
  db: Db,
  builder: Builder,
  spec: SoftwareSpec,
  request: BuildRequest,
): Promise<{ request: BuildRequest; note: string } | null> {
  if (request.kind !== 'pip' || request.lockfile) return null;
  const [alias] = await db
    .select({ name: softwareAliases.name })
    .from(softwareAliases)
    .where(eq(softwareAliases.id, spec.aliasId));
  if (alias?.name !== DEFAULT_ENVIRONMENT) return null;
  const dashboard = (await builder.interpreter().catch(() => null))?.dashboardRequirement;
  if (!dashboard || !request.requirements.includes(dashboard)) return null;
  return {
    request: { ...request, requirements: request.requirements.filter((r) => r !== dashboard) },
    note:
      `The Dask dashboard needs ${dashboard}, which the package index does not have: ` +
      `${DEFAULT_ENVIRONMENT} is built without it, and its clusters run without the dashboard.`,
  };
}

/** A build and the spec it builds. */
export async function buildWithSpec(db: Db, buildId: number) {
  const [row] = await db
    .select({ build: softwareBuilds, spec: softwareSpecs })
    .from(softwareBuilds)
    .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
    .where(eq(softwareBuilds.id, buildId));
  return row;
}

/** What the builder installs: the spec's requirements and wheels, or exactly a lockfile. */
export async function buildRequest(
  ctx: Pick<BuildLoopContext, 'db' | 'dataDir'>,
  buildId: number,
  spec: SoftwareSpec,
  fromLockfile: string | null,
): Promise<BuildRequest> {
  const kind = spec.containerUri ? 'container' : spec.rawConda ? 'conda' : 'pip';
  const fileIds = spec.packages.flatMap((p) => (p.include && p.file ? [p.file] : []));
  const files =
    fileIds.length === 0
      ? []
      : await ctx.db.select().from(packageFiles).where(inArray(packageFiles.id, fileIds));
  const sources = pipSources(spec);
  const requirements = [
    ...sources,
    ...(spec.rawPip ?? []),
    ...spec.packages
      .filter((p) => p.include && !p.file && p.name !== 'python')
      .map((p) => `${p.name}${p.specifier}`),
  ];
  return {
    buildId,
    kind,
    requirements,
    wheels: files.map((f) => ({
      id: f.id,
      fileName: f.fileName,
      sha256: f.sha256,
      path: packageFilePath(ctx.dataDir, f),
    })),
    // A lockfile is installed from where its packages came from.
    lockfile: fromLockfile
      ? [...sources, ...(spec.rawPip ?? []).filter(isSourceLine), fromLockfile].join('\n')
      : undefined,
  };
}

/**
 * Where the client's pip found what a package sync asks for (its index URLs and find-links, sent
 * with its scan), as requirement-file lines: looked at besides the server's own pip configuration
 * (its index stays the first), as a named environment's `--extra-index-url` lines are.
 */
function pipSources(spec: SoftwareSpec): string[] {
  return [
    ...(spec.scan?.index_urls ?? []).map((url) => `--extra-index-url ${url}`),
    ...(spec.scan?.find_links ?? []).map((link) => `--find-links ${link}`),
  ];
}

/** Appends build output in batches; a log is never rewritten. */
class LogWriter {
  #pending: { timestampMs: number; message: string }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly buildId: number,
  ) {}

  add(message: string): void {
    // pip hides an index's password, not a token alone; neither reaches the log.
    const line = withoutCredentials(message.replaceAll('\0', '')).slice(0, 10_000);
    this.#pending.push({ timestampMs: Date.now(), message: line });
    if (this.#pending.length >= LOG_FLUSH_LINES) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), LOG_FLUSH_MS);
  }

  async close(): Promise<void> {
    this.#flush();
    await this.#writing;
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const lines = this.#pending.splice(0);
    if (lines.length === 0) return;
    this.#writing = this.#writing.then(() =>
      this.db
        .insert(softwareBuildLogs)
        .values(lines.map((l) => ({ buildId: this.buildId, ...l })))
        .then(
          () => undefined,
          () => undefined,
        ),
    );
  }
}
