import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type TarEntry, tarGz } from '../../../lib/tar.js';
import { PYTHON_DIR } from '../../../paths.js';

export interface ClientSdist {
  version: string;
  fileName: string;
  bytes: Buffer;
}

/** Every file of the package, without bytecode caches. */
async function packageFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__pycache__') found.push(...(await packageFiles(full)));
    } else if (entry.isFile() && !entry.name.endsWith('.pyc')) {
      found.push(full);
    }
  }
  return found.sort();
}

/**
 * The Python client (`python/` of this repository) as a source distribution pip installs from a
 * URL (`pip install --no-build-isolation <server>/api/v2/client/cumulus.tar.gz`), so any machine
 * that reaches the server gets the client of this very server.
 */
async function buildSdist(): Promise<ClientSdist> {
  const pyproject = await readFile(path.join(PYTHON_DIR, 'pyproject.toml'));
  const version = /^version\s*=\s*"([^"]+)"/m.exec(pyproject.toString('utf8'))?.[1] ?? '0.0.0';
  const root = `cumulus-${version}`;
  const files = await packageFiles(path.join(PYTHON_DIR, 'cumulus'));
  const entries: TarEntry[] = [
    {
      path: `${root}/PKG-INFO`,
      data: Buffer.from(`Metadata-Version: 2.1\nName: cumulus\nVersion: ${version}\n`),
    },
    { path: `${root}/pyproject.toml`, data: pyproject },
  ];
  for (const file of files) {
    const info = await stat(file);
    entries.push({
      path: `${root}/${path.relative(PYTHON_DIR, file).split(path.sep).join('/')}`,
      data: await readFile(file),
      mtime: info.mtime,
    });
  }
  return { version, fileName: `${root}.tar.gz`, bytes: tarGz(entries) };
}

let built: Promise<ClientSdist> | null = null;

/** Built once per process (the client's files do not change under a running server). */
export function clientSdist(): Promise<ClientSdist> {
  built ??= buildSdist().catch((error) => {
    built = null;
    throw error;
  });
  return built;
}
