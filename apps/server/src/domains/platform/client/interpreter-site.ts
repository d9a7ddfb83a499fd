import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Whether the interpreter is a virtual environment's, and where its packages are: a venv made from
// a venv's python has the BASE interpreter as its home, so --system-site-packages would lend it
// the base's packages, not the Dask of the environment clusters run.
const PROBE = `
import json, os, site, sys
dirs = [d for d in site.getsitepackages() if os.path.isdir(d)]
print(json.dumps({
    "virtualenv": sys.prefix != sys.base_prefix,
    "site_dirs": dirs,
    "purelib": "lib/python%d.%d/site-packages" % sys.version_info[:2],
}))`;

export interface InterpreterSite {
  /** `sys.prefix != sys.base_prefix`: the interpreter is a virtual environment's. */
  virtualenv: boolean;
  /** Its site-packages directories, in the order it reads them. */
  siteDirs: string[];
  /** Where a virtual environment made from it keeps its packages, relative to the environment. */
  purelib: string;
}

const known = new Map<string, Promise<InterpreterSite>>();

/** Read once per interpreter and process (a running server's CUMULUS_PYTHON does not move). */
export function interpreterSite(python: string): Promise<InterpreterSite> {
  let found = known.get(python);
  if (!found) {
    found = run(python, ['-c', PROBE], { timeout: 30_000 }).then(({ stdout }) => {
      const parsed = JSON.parse(stdout) as { virtualenv: boolean; site_dirs: string[]; purelib: string };
      return { virtualenv: parsed.virtualenv, siteDirs: parsed.site_dirs, purelib: parsed.purelib };
    });
    found.catch(() => known.delete(python));
    known.set(python, found);
  }
  return found;
}
