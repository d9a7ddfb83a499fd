// Builds what `npm start` serves, only the parts whose sources changed since their last build:
// one line per part built; the build's own output only when it fails.
// CUMULUS_BUILD_ON_START=never skips the check (a release of built files), =always builds all.
// Arguments name the parts to look at (`server`, `console`); none: all.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PARTS, staleness } from './build-parts.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.env.CUMULUS_BUILD_ON_START || 'auto';
if (!['auto', 'never', 'always'].includes(mode)) {
  console.error(`start: CUMULUS_BUILD_ON_START must be auto, never or always (not ${mode})`);
  process.exit(2);
}

const named = process.argv.slice(2);
const parts = PARTS.filter((part) => named.length === 0 || named.includes(part.name));
for (const part of mode === 'never' ? [] : parts) {
  const reason = mode === 'always' ? 'as asked' : staleness(root, part);
  if (!reason) continue;
  const began = Date.now();
  process.stderr.write(`start: building the ${part.name} (${part.workspace}: ${reason}) ... `);
  const { code, output } = await run('npm', ['run', 'build', '--silent', '-w', part.workspace]);
  if (code !== 0) {
    // A failed build may have written its output: the next start must not take it as current.
    rmSync(path.join(root, part.output), { force: true });
    process.stderr.write(
      `failed:\n${output}\nstart: the ${part.name} did not build (above); fix it and start again\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`done in ${Math.round((Date.now() - began) / 1000)} s\n`);
}

/** Runs a command in the checkout, its output kept (not shown). */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (err) => resolve({ code: 1, output: String(err) }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
