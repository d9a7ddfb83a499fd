import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { eventually } from './journeys';

const PYTHON_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../python');

/**
 * Runs a Python script with the Cumulus client (Debian's Python, which has Dask) against the
 * server as the user with `key`. From a file, not `-c`: Dask reads the code that asked for a
 * computation from its source file. The script is told to finish with a line on its stdin.
 */
export function runPython(script: string, server: { base: string; key: string }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-e2e-python-'));
  // Readable as a user's project folder is: the cluster's processes (a uid of their own) read the
  // source lines of a traceback from it, as on the user's own machine.
  chmodSync(dir, 0o755);
  const file = path.join(dir, 'script.py');
  writeFileSync(file, script, { mode: 0o644 });
  const child = spawn('/usr/bin/python3', [file], {
    env: {
      ...process.env,
      CUMULUS_SERVER: server.base,
      CUMULUS_API_TOKEN: server.key,
      PYTHONPATH: PYTHON_DIR,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += String(chunk);
  });
  return {
    output: () => out,
    /**
     * Waits until the script printed a whole line with `word` in it (a pipe may hand over a line
     * in pieces: `CLUSTER` before its ` 12`).
     */
    printed: (word: string, timeoutMs = 300_000) =>
      eventually(() => {
        if (!out.slice(0, out.lastIndexOf('\n') + 1).includes(word))
          throw new Error(`no line with ${word} yet: ${out}`);
      }, timeoutMs),
    /** Waits for the line `WORD <number>` (the id of what the script made) and answers the number. */
    printedNumber: async (word: string, timeoutMs = 300_000) => {
      const line = new RegExp(`^${word} (\\d+)$`, 'm');
      let found = 0;
      await eventually(() => {
        const match = line.exec(out.slice(0, out.lastIndexOf('\n') + 1));
        if (!match) throw new Error(`no line "${word} <number>" yet: ${out}`);
        found = Number(match[1]);
      }, timeoutMs);
      return found;
    },
    /** Tells the script to finish (a line on stdin) and waits for it, ending it after two minutes. */
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.stdin.write('stop\n');
        const timer = setTimeout(() => {
          child.kill('SIGTERM');
          resolve();
        }, 120_000);
        child.on('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
