import type { BuildReport, LockedPackage } from '../db/schema/index.js';
import { BackendError } from './errors.js';
import type { RegistryLogin } from './podman.js';

/**
 * Turns a software spec into an environment clusters run with. A backend that can build declares
 * a Builder (the local backend: a virtual environment and pip). The build loop
 * (modules/software/reconcile.ts) calls it; nothing else builds.
 *
 * The contract:
 * - `build` streams the installer's output line by line to `log` as it comes and stops (killing
 *   what it runs) when `signal` aborts; it may be called again for the same build after a crash.
 * - It answers the environment's exact contents (the lockfile) and where it is. Environments are
 *   content-addressed: a build that resolves to packages an existing environment already has
 *   answers that environment's location instead of keeping a second copy.
 * - A failure is a BackendError whose reason names what failed (pip's own message).
 */
export interface BuildRequest {
  buildId: number;
  /** `pip` installs requirements into a virtual environment; conda and containers need other builders. */
  kind: 'pip' | 'conda' | 'container';
  /** Requirement lines as pip reads them (`name==1.0`, `--index-url ...`, `--extra-index-url ...`). */
  requirements: string[];
  /** Uploaded wheels the spec installs (package sync's local and editable packages). */
  wheels: BuildWheel[];
  /** Install exactly these `name==version` lines, without resolving (a rebuild from a lockfile). */
  lockfile?: string | undefined;
  /** The workspace the build is for (a cloud builder launches its build machine in its account). */
  workspaceId?: number;
  /** The machines it is for (x86_64, aarch64): where builds are per architecture, it is built on one. */
  architecture?: string;
  /** A container environment's image (kind `container`), and the login of the registry it is on. */
  container?: { image: string; useEntrypoint: boolean; login: RegistryLogin | null };
}

export interface BuildWheel {
  id: number;
  fileName: string;
  sha256: string | null;
  /** On this server's disk. */
  path: string;
}

export interface BuildIO {
  log(line: string): void;
  signal: AbortSignal;
  /** For builders that run the build on another machine (remote-builder.ts). */
  remote: RemoteBuildHandle;
}

/**
 * How a build machine and the control plane meet: the machine calls the cluster-facing
 * software-environment calls with `token` (spec, phone-home with its log and state, start-upload
 * of the environment's archive); `report` answers what it last said.
 */
export interface RemoteBuildHandle {
  token: string;
  serverUrl: string;
  report(): Promise<BuildReport | null>;
}

export interface BuildResult {
  location: string;
  /** `name==version` lines, sorted, under a header naming the interpreter: what was installed. */
  lockfile: string;
  packages: LockedPackage[];
  /** SHA-256 of the lockfile: the environment's identity. */
  lockfileHash: string;
  sizeBytes: number;
}

export interface Interpreter {
  version: string;
  architecture: string;
  packages: ReadonlyMap<string, string>;
  /** What Dask needs installed to serve its dashboard (`bokeh>=2.4.2,<=2.4.3`); null: it can already. */
  dashboardRequirement: string | null;
}

/**
 * Where a cloud builder keeps environment archives outside this server (vm_gcp: a Cloud Storage
 * bucket of the workspace's), reached by signed links: the build machine uploads to one, each
 * instance downloads by another, neither with a token of Cumulus's.
 */
export interface ArchiveStore {
  /** Whether a build's location is in this store (`gs://...`). */
  owns(location: string): boolean;
  /**
   * Where the build's machine PUTs its archive: a signed link, and the location the upload will be
   * at; null where the workspace's archives stay on this server (the control plane's link then).
   */
  uploadTarget(
    workspaceId: number,
    buildId: number,
  ): Promise<{ url: string; location: string; expiresAt: Date } | null>;
  /** Keeps an uploaded archive under its content hash (an identical one is reused): its location and size. */
  keep(
    workspaceId: number,
    uploaded: string,
    lockfileHash: string,
    log: (line: string) => void,
  ): Promise<{ location: string; sizeBytes: number }>;
  /** A short-lived link an instance downloads the archive by (no credentials of its own). */
  downloadUrl(workspaceId: number, location: string): Promise<string>;
  /** Deletes an archive (garbage collection); one already gone is no error. */
  remove(workspaceId: number, location: string): Promise<void>;
}

export interface Builder {
  readonly kinds: readonly BuildRequest['kind'][];
  /** Where its archives are kept when not on this server (unpackedAtBoot builders). */
  readonly archives?: ArchiveStore;
  /**
   * Its environments are archives on this server that each instance downloads and unpacks at boot
   * (`cluster_facing/environment.tar.gz`), not directories an instance's `python` can point into.
   */
  readonly unpackedAtBoot?: boolean;
  /**
   * Its environments are for one architecture (compiled packages are): a build is made on a
   * machine of the build's `architecture`, and a cluster's machines run the build of theirs.
   */
  readonly perArchitecture?: boolean;
  build(request: BuildRequest, io: BuildIO): Promise<BuildResult>;
  /** The Python environments are made from: its version, machine and the packages it has (by PEP 503 name). */
  interpreter(): Promise<Interpreter>;
  /** Forgets what `interpreter` read: the next call reads it again (packages were installed into it). */
  forget(): void;
  /** The interpreter of a built environment (what Dask runs with). */
  pythonOf(location: string): string;
  /** Frees an environment's files (garbage collection); its lockfile stays in the database. */
  remove(location: string): Promise<void>;
  /** Bytes an environment takes. */
  sizeOf(location: string): Promise<number>;
}

/** The builder's answer to a kind it cannot build. */
export function cannotBuild(kind: BuildRequest['kind'], backend: string): BackendError {
  const what =
    kind === 'conda' ? 'Conda environments cannot be built here' : 'Container images cannot be run here';
  return new BackendError(
    `${what}: the ${backend} backend builds pip packages into a virtual environment. ` +
      'Give the environment pip requirements (raw_pip) instead, or use a backend that builds it.',
    false,
  );
}

/** pip's options that say where packages come from (a requirements file's `--index-url` lines...). */
export const isSourceLine = (line: string) =>
  /^\s*(--index-url|--extra-index-url|--find-links|--no-index|--trusted-host|-i\s|-f\s)/.test(line);

/** PEP 503 project names: runs of `-`, `_` and `.` are one `-`, lower case. */
export const normaliseProject = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');
