import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkInterpreter } from '../src/lib/interpreter.js';

/** What `npm start` says about the interpreter local clusters run on (CUMULUS_PYTHON). */
describe('the start-up interpreter check', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-python-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the interpreter, its Python and its distributed', async () => {
    const report = await checkInterpreter('/usr/bin/python3');
    expect(report.ok).toBe(true);
    expect(report.message).toMatch(
      /^clusters run on \/usr\/bin\/python3[.\d]* \(Python 3\.\d+\.\d+, distributed \d\S*; CUMULUS_PYTHON=\/usr\/bin\/python3\)$/,
    );
  });

  it('says when the interpreter has no Dask (as a fresh virtual environment may not) and what to do', async () => {
    // An interpreter that does not see the system's site-packages, where Debian's Dask lives.
    const bare = path.join(dir, 'python-without-dask');
    writeFileSync(bare, '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n');
    chmodSync(bare, 0o755);
    const report = await checkInterpreter(bare);
    expect(report.ok).toBe(false);
    expect(report.message).toMatch(
      /^clusters cannot start: \S+ \(Python 3[.\d]+, CUMULUS_PYTHON=\S+python-without-dask\) has no Dask distributed; set CUMULUS_PYTHON/,
    );
  });

  it('says when the interpreter does not run at all', async () => {
    const report = await checkInterpreter(path.join(dir, 'missing-python'));
    expect(report).toEqual({
      ok: false,
      message: expect.stringMatching(/^clusters cannot start: CUMULUS_PYTHON=\S+missing-python does not run/),
    });
  });
});
