import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { PYTHON_DIR } from '../paths.js';

let bundle: Promise<Buffer> | null = null;

/**
 * The `cumulus` Python package as a gzip tar archive: what a cloud VM downloads at boot to run
 * the same instance agent local instances run (made once per server process).
 */
export function agentBundle(): Promise<Buffer> {
  bundle ??= new Promise<Buffer>((resolve, reject) => {
    execFile(
      'tar',
      ['-czf', '-', '--exclude=__pycache__', '--exclude=*.pyc', '-C', PYTHON_DIR, 'cumulus'],
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
  }).catch((err: unknown) => {
    bundle = null;
    throw err;
  });
  return bundle;
}

/** The first 16 hex digits of the bundle's SHA-256: names the copy a host keeps of it (user-data.ts). */
export async function agentBundleId(): Promise<string> {
  return createHash('sha256')
    .update(await agentBundle())
    .digest('hex')
    .slice(0, 16);
}
