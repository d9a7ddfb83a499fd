import { normaliseProject } from '../../compute/builder.js';
import { text, z } from '../../http/zod.js';

/** How closely a package on the cluster must match the client's. */
export const LEVELS = {
  CRITICAL: 100,
  STRICT_MATCH: 75,
  WARN: 50,
  NONE: 0,
  LOOSE: -1,
  IGNORE: -2,
  MATCH_MINOR: -3,
  MATCH_MINOR_CEILING: -4,
  IGNORE_UNLESS_REQUESTED: -5,
} as const;

/**
 * The packages whose versions matter. Dask's own and what it serialises with must match the
 * client's exactly, or tasks fail in confusing ways; what only runs on the client (notebooks,
 * installers, Cumulus' client) is not installed on clusters.
 */
const PACKAGE_LEVELS: Array<{ name: string; level: number; source: 'pip' | 'conda' }> = [
  { name: 'python', level: LEVELS.CRITICAL, source: 'conda' },
  { name: 'dask', level: LEVELS.CRITICAL, source: 'pip' },
  { name: 'distributed', level: LEVELS.CRITICAL, source: 'pip' },
  { name: 'cloudpickle', level: LEVELS.CRITICAL, source: 'pip' },
  { name: 'msgpack', level: LEVELS.CRITICAL, source: 'pip' },
  { name: 'msgpack-python', level: LEVELS.CRITICAL, source: 'conda' },
  { name: 'tornado', level: LEVELS.STRICT_MATCH, source: 'pip' },
  { name: 'toolz', level: LEVELS.STRICT_MATCH, source: 'pip' },
  { name: 'numpy', level: LEVELS.MATCH_MINOR, source: 'pip' },
  { name: 'pandas', level: LEVELS.MATCH_MINOR, source: 'pip' },
  { name: 'pyarrow', level: LEVELS.MATCH_MINOR, source: 'pip' },
  { name: 'lz4', level: LEVELS.WARN, source: 'pip' },
  { name: 'bokeh', level: LEVELS.LOOSE, source: 'pip' },
  { name: 'cumulus', level: LEVELS.IGNORE, source: 'pip' },
  { name: 'coiled', level: LEVELS.IGNORE, source: 'pip' },
  { name: 'pip', level: LEVELS.IGNORE, source: 'pip' },
  { name: 'setuptools', level: LEVELS.IGNORE, source: 'pip' },
  { name: 'wheel', level: LEVELS.IGNORE, source: 'pip' },
  { name: 'conda', level: LEVELS.IGNORE, source: 'conda' },
  { name: 'ipykernel', level: LEVELS.IGNORE_UNLESS_REQUESTED, source: 'pip' },
  { name: 'jupyterlab', level: LEVELS.IGNORE_UNLESS_REQUESTED, source: 'pip' },
  { name: 'notebook', level: LEVELS.IGNORE_UNLESS_REQUESTED, source: 'pip' },
];
const levelBy = new Map(PACKAGE_LEVELS.map((p) => [p.name, p.level]));

export function packageLevels() {
  return PACKAGE_LEVELS;
}

const scanPackage = z.object({
  name: text(200).min(1),
  priority_override: z.number().int().nullish(),
  python_major_version: z.union([z.string(), z.number()]).nullish(),
  python_minor_version: z.union([z.string(), z.number()]).nullish(),
  python_patch_version: z.union([z.string(), z.number()]).nullish(),
  source: z.enum(['pip', 'conda']).default('pip'),
  channel_url: text(1000).nullish(),
  channel: text(500).nullish(),
  subdir: text(100).nullish(),
  conda_name: text(200).nullish(),
  version: text(200).default(''),
  wheel_target: text(2000).nullish(),
  requested: z.boolean().default(false),
});

/** `POST software-environment/approximate-packages`. */
export const approximateBody = z.object({
  architecture: z.enum(['x86_64', 'aarch64']).default('x86_64'),
  packages: z.array(scanPackage).max(10_000),
  metadata: z
    .object({
      base_prefix: text(1000).nullish(),
      platform: text(100).nullish(),
      prefix: text(1000).nullish(),
      sys_path: z.array(text(1000)).max(500).nullish(),
    })
    .loose()
    .nullish(),
  index_urls: z.array(text(1000)).max(50).nullish(),
  pip_check_errors: z.record(z.string(), z.array(z.string())).nullish(),
  gpu_enabled: z.boolean().default(false),
  lockfile_name: text(200).nullish(),
  lockfile_content: z.string().max(4_000_000).nullish(),
});

export const approximatedSchema = z.object({
  name: z.string(),
  conda_name: z.string().nullable(),
  specifier: z.string(),
  include: z.boolean(),
  note: z.string().nullable(),
  error: z.string().nullable(),
  channel_url: z.string().nullable(),
  client_version: z.string().nullable(),
});
type Approximated = z.infer<typeof approximatedSchema>;

/** What the clusters of this server run: its interpreter's Python version and architecture. */
export interface Target {
  python: string;
  architecture: string;
  /** What the clusters' interpreter has already (PEP 503 name to version). */
  packages: ReadonlyMap<string, string>;
  /** Conda packages are installed from pip by their name (the local backend builds with pip). */
  pipOnly: boolean;
}

/**
 * Turns a client's scan into requirements a cluster can install: exact versions where a mismatch
 * breaks Dask (CRITICAL must match, or it is an error the client stops on), looser ones where it
 * does not, and nothing of what only the client runs. Pure computation: it answers at once.
 */
export function approximatePackages(body: z.infer<typeof approximateBody>, target: Target): Approximated[] {
  const answer: Approximated[] = [];
  for (const p of body.packages) {
    const name = p.source === 'conda' && p.name !== 'python' ? normaliseProject(p.name) : p.name;
    const level = p.priority_override ?? levelBy.get(normaliseProject(name)) ?? LEVELS.NONE;
    const version = String(p.version ?? '');
    const base: Approximated = {
      name,
      conda_name: p.conda_name ?? (p.source === 'conda' ? p.name : null),
      specifier: '',
      include: true,
      note: null,
      error: null,
      channel_url: p.channel_url ?? null,
      client_version: version || null,
    };
    if (name === 'python') {
      answer.push(approximatePython(p, base, target));
      continue;
    }
    if (level === LEVELS.IGNORE || (level === LEVELS.IGNORE_UNLESS_REQUESTED && !p.requested)) {
      answer.push({ ...base, include: false, note: 'Only used on your machine: not installed on clusters.' });
      continue;
    }
    if (p.wheel_target) {
      answer.push({
        ...base,
        specifier: version ? `==${version}` : '',
        note: 'Built from your local files into a wheel and uploaded.',
      });
      continue;
    }
    const error = p.source === 'pip' && !version ? `${name} has no version on your machine.` : null;
    // What clusters have already, at the same version, is not installed again (but Dask's own
    // stay listed: clients stop on a critical package left out).
    if (level < LEVELS.CRITICAL && version && target.packages.get(normaliseProject(name)) === version) {
      answer.push({ ...base, include: false, note: 'Clusters here have it already, at the same version.' });
      continue;
    }
    answer.push({
      ...base,
      specifier: specifierFor(level, version),
      note:
        p.source === 'conda' && target.pipOnly
          ? `Installed with pip: clusters here build pip environments (from conda ${p.channel ?? 'channel'}).`
          : null,
      error,
    });
  }
  return answer;
}

function approximatePython(p: z.infer<typeof scanPackage>, base: Approximated, target: Target): Approximated {
  const major = p.python_major_version ?? p.version.split('.')[0];
  const minor = p.python_minor_version ?? p.version.split('.')[1];
  const client = major !== undefined && minor !== undefined ? `${major}.${minor}` : null;
  const [tMajor, tMinor] = target.python.split('.');
  const cluster = `${tMajor}.${tMinor}`;
  const versionOf = p.version || (client ? `${client}.${p.python_patch_version ?? 0}` : '');
  return {
    ...base,
    conda_name: 'python',
    client_version: versionOf || null,
    specifier: client ? `==${client}.*` : '',
    note: `Clusters here run Python ${target.python}.`,
    error:
      client && client !== cluster
        ? `Your Python is ${client}, clusters here run Python ${cluster}: use a Python ${cluster} environment, or a server whose CUMULUS_PYTHON is Python ${client}.`
        : null,
  };
}

function specifierFor(level: number, version: string): string {
  if (!version) return '';
  const [major, minor] = version.split('.');
  switch (level) {
    case LEVELS.LOOSE:
      return minor !== undefined ? `~=${major}.${minor}` : '';
    case LEVELS.MATCH_MINOR:
      return minor !== undefined ? `==${major}.${minor}.*` : `==${version}`;
    case LEVELS.MATCH_MINOR_CEILING:
      return minor !== undefined ? `>=${version},<${major}.${Number(minor) + 1}` : `>=${version}`;
    default:
      return `==${version}`;
  }
}
