import { execFile } from 'node:child_process';

const ABOUT = `
import json, sys
try:
    import distributed
    dask = distributed.__version__
except Exception:
    dask = None
print(json.dumps({"executable": sys.executable, "version": sys.version.split()[0], "distributed": dask}))`;

export interface InterpreterReport {
  /** The line to log, naming the interpreter and what it lacks. */
  message: string;
  ok: boolean;
}

/**
 * Which Python runs local clusters (CUMULUS_PYTHON) and whether it has Dask, said once at start:
 * a virtual environment or another interpreter without `distributed` starts no cluster.
 */
export function checkInterpreter(python: string, timeoutMs = 60_000): Promise<InterpreterReport> {
  const fix =
    'set CUMULUS_PYTHON to an interpreter that has it (see /docs/operations#when-clusters-cannot-start on this server)';
  return new Promise((resolve) => {
    execFile(python, ['-c', ABOUT], { timeout: timeoutMs }, (error, stdout) => {
      let about: { executable: string; version: string; distributed: string | null } | undefined;
      try {
        about = error ? undefined : JSON.parse(stdout);
      } catch {
        about = undefined;
      }
      if (!about)
        return resolve({
          ok: false,
          message: `clusters cannot start: CUMULUS_PYTHON=${python} does not run (${error?.message.split('\n')[0] ?? 'no answer'}); ${fix}`,
        });
      if (!about.distributed)
        return resolve({
          ok: false,
          message: `clusters cannot start: ${about.executable} (Python ${about.version}, CUMULUS_PYTHON=${python}) has no Dask distributed; ${fix}`,
        });
      resolve({
        ok: true,
        message: `clusters run on ${about.executable} (Python ${about.version}, distributed ${about.distributed}; CUMULUS_PYTHON=${python})`,
      });
    });
  });
}
