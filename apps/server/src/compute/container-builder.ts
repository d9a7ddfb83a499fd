import { createHash } from 'node:crypto';
import type { LockedPackage } from '../db/schema/index.js';
import type { BuildIO, BuildRequest, BuildResult } from './builder.js';
import { final } from './errors.js';
import type { Podman } from './podman.js';

/** Locations of container environments: the pulled image's id, after this prefix. */
export const CONTAINER_LOCATION = 'container:';
export const isContainerLocation = (location: string) => location.startsWith(CONTAINER_LOCATION);
export const imageOfLocation = (location: string) => location.slice(CONTAINER_LOCATION.length);

/** Podman's architecture names in the words clients use. */
const ARCHITECTURES: Record<string, string> = { amd64: 'x86_64', arm64: 'aarch64' };

/** Run in the image: its Python, machine, packages and the version of `distributed` it has (or none). */
const ABOUT_IMAGE = `
import json, platform
from importlib.metadata import distributions
packages = {d.metadata["Name"]: d.version for d in distributions() if d.metadata["Name"]}
try:
    import distributed
    dask = distributed.__version__
except Exception as e:
    dask = None
print(json.dumps({"version": platform.python_version(), "machine": platform.machine(), "packages": packages, "distributed": dask}))`;

interface AboutImage {
  version: string;
  machine: string;
  packages: Record<string, string>;
  distributed: string | null;
}

/**
 * "Builds" a container environment: pulls the image (with the workspace's registry login where
 * the image lives on that registry), checks that it can run the instance's agent and Dask (its
 * `python3` imports `distributed`) on this machine's architecture, and records its packages as the
 * lockfile. The environment is the image itself; instances run in it (local.ts).
 */
export async function buildContainer(
  podman: Podman,
  request: BuildRequest,
  hostArchitecture: string,
  io: BuildIO,
): Promise<BuildResult> {
  const container = request.container;
  if (!container) throw final('A container environment needs an image (container_uri)');
  const { image, useEntrypoint, login } = container;
  // `localhost/...` names this machine's own images (built or imported here by its operator): they
  // come from no registry. Every other image is pulled at each build, with the workspace's login,
  // so a private image another workspace pulled is never reused by one without the credentials.
  const local = image.startsWith('localhost/');
  io.log(
    local
      ? `Using ${image} from this machine's images`
      : `Pulling ${image}${login ? ` with the workspace's credentials for ${login.registry}` : ''}`,
  );
  const facts = local
    ? await podman.inspect(image).catch(() => {
        throw final(`${image} is not among this machine's images (localhost/ names images made here)`);
      })
    : await podman.pull(image, login, io.signal);
  const arch = ARCHITECTURES[facts.architecture] ?? facts.architecture;
  const wanted = request.architecture ?? hostArchitecture;
  if (arch && arch !== wanted)
    throw final(
      `${image} is built for ${arch}; this backend's machines are ${wanted}: use an image for ${wanted}`,
    );
  io.log(
    `Pulled ${facts.id.slice(0, 12)} (${arch}, ${(facts.sizeBytes / 1e6).toFixed(0)} MB); checking it runs Dask`,
  );
  let about: AboutImage;
  try {
    about = JSON.parse(
      (await podman.python(facts.id, ABOUT_IMAGE, useEntrypoint, io.signal)).trim().split('\n').at(-1) ?? '',
    ) as AboutImage;
  } catch (err) {
    throw final(
      `${image} cannot run the instance's Python: \`python3\` is missing or failed in it` +
        `${useEntrypoint ? ' (through its entrypoint)' : ''}: ${(err as Error).message.split('\n').slice(-2).join(' ')}`,
    );
  }
  if (!about.distributed)
    throw final(
      `${image} has no Dask: its python3 (${about.version}) cannot import distributed. ` +
        'Install dask and distributed in the image (pip install "dask[distributed]").',
    );
  io.log(`${image}: Python ${about.version}, distributed ${about.distributed}`);
  const packages: LockedPackage[] = Object.entries(about.packages)
    .map(([name, version]) => ({ name, version, source: 'system' as const, sha256: null }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const header = `# cumulus lockfile: container ${image} (${facts.id}), Python ${about.version} ${arch || about.machine}`;
  const lockfile = `${header}\n${packages.map((p) => `${p.name}==${p.version}`).join('\n')}\n`;
  return {
    location: `${CONTAINER_LOCATION}${facts.id}`,
    lockfile,
    packages,
    lockfileHash: createHash('sha256').update(lockfile).digest('hex'),
    sizeBytes: facts.sizeBytes,
  };
}
