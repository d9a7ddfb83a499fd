import { spawn } from 'node:child_process';
import { type CommandResult, runOn, SshFailure, type SshTarget } from '../ssh/connection.js';
import type { RestLogin } from './rest.js';

/**
 * A Slurm cluster's login node, where sbatch, squeue and scancel run: this machine (`local`, the
 * server's own user submitting; its operator allows it with CUMULUS_SLURM_LOCAL_LOGIN), or a host
 * reached over SSH with its host key pinned (compute/ssh/connection.ts); or no login node at all but
 * slurmrestd with a JWT (`rest`, compute/slurm/rest.ts), where no command runs.
 */
export type CommandLogin = { mode: 'local'; name: string } | ({ mode: 'ssh' } & SshTarget);
export type SlurmLogin = CommandLogin | RestLogin;

const TIMEOUT_MS = 30_000;

/** Runs a bash script here, `stdin` fed to it, with the server's environment (SLURM_CONF, PATH). */
function runHere(script: string, stdin: string, timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new SshFailure('unreachable', `The Slurm commands did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/** Runs a script on the login node (bash there: a login shell over SSH finds Slurm's commands on its PATH). */
export function runOnLogin(
  login: CommandLogin,
  script: string,
  options: { stdin?: string; timeoutMs?: number } = {},
): Promise<CommandResult> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  if (login.mode === 'local') return runHere(script, options.stdin ?? '', timeoutMs);
  return runOn(login, `bash -lc ${quote(script)}`, { stdin: options.stdin, timeoutMs });
}

/** Single-quoted for sh, whatever the value holds. */
export const quote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/** A backend error for a failed call to the login node (as for an SSH host's). */
export { backendErrorOf as loginError } from '../ssh/connection.js';
