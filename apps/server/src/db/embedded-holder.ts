import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database (PGlite) can be open in one process only. The server notes its pid in the
 * data directory while it has it open, so that a tool (the admin CLI) can say so instead of
 * opening it too.
 */
const fileOf = (dataDir: string) => path.join(dataDir, 'server.pid');

/** Notes this process as the holder; answers how to take the note away (also done at exit). */
export function holdEmbeddedDatabase(dataDir: string): () => void {
  const file = fileOf(dataDir);
  writeFileSync(file, `${process.pid}\n`);
  const release = () => {
    if (embeddedDatabaseHolder(dataDir) === process.pid) rmSync(file, { force: true });
  };
  process.once('exit', release);
  return release;
}

/** The pid of a live process holding the embedded database in `dataDir`, or null. */
export function embeddedDatabaseHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(fileOf(dataDir), 'utf8'), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
