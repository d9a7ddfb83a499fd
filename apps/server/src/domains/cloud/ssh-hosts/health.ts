import { runOn, SshFailure, type SshTarget } from '../../../compute/ssh/connection.js';
import type { SshHostHealth } from '../../../db/schema/index.js';

/** What the host says of itself: its Python, Dask's version (without importing it), cores, available memory, load. */
const PROBE = `import json, os, sys
out = {"python": sys.version.split()[0], "cores": os.cpu_count(), "load": os.getloadavg()[0]}
try:
    from importlib.metadata import version
    out["dask"] = version("distributed")
except Exception as e:
    out["error"] = f"distributed is not installed for {sys.executable}"
mem = dict(line.split(":", 1) for line in open("/proc/meminfo"))
out["free_mib"] = int(mem["MemAvailable"].split()[0]) // 1024
print(json.dumps(out))
`;

const quote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/**
 * Checks a host as Cumulus will use it: reachable as its account with the pinned host key (never
 * trusting another), its Python has `distributed`, and what is free now.
 */
export async function checkHost(target: SshTarget, python: string): Promise<SshHostHealth> {
  let stdout: string;
  try {
    const result = await runOn(
      target,
      `command -v ${quote(python)} >/dev/null || { echo "no ${python} on the PATH of ${target.user}"; exit 3; }; ${quote(python)} -`,
      // A connection of its own: the check proves the host takes a new one (a key revoked since, say).
      { stdin: PROBE, reuse: false },
    );
    if (result.code !== 0)
      return { status: 'no_dask', message: (result.stdout + result.stderr).trim().slice(0, 500) };
    stdout = result.stdout;
  } catch (err) {
    if (!(err instanceof SshFailure)) throw err;
    const status = { host_key: 'host_key_mismatch', auth: 'refused', unreachable: 'unreachable' } as const;
    return { status: status[err.kind], message: err.message };
  }
  let found: { python: string; cores: number; load: number; dask?: string; error?: string; free_mib: number };
  try {
    found = JSON.parse(stdout);
  } catch {
    return {
      status: 'no_dask',
      message: `${python} on ${target.name} is not a Python that answers Cumulus's check.`,
    };
  }
  const seen = {
    python_version: found.python,
    free_cores: Math.max(0, Math.floor(found.cores - found.load)),
    free_memory_mib: found.free_mib,
  };
  if (!found.dask)
    return { status: 'no_dask', message: found.error ?? 'distributed is not installed', ...seen };
  return {
    status: 'ok',
    message: `Reachable; Python ${found.python} with Dask distributed ${found.dask}`,
    dask_version: found.dask,
    ...seen,
  };
}
