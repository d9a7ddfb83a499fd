import { final } from '../backend.js';
import { SshFailure } from '../ssh/connection.js';

/**
 * A Slurm cluster reached through slurmrestd (Slurm's REST API, `openapi/v0.0.38`, Slurm 22.05 and
 * later) with a JWT (`scontrol token username=<user>`): the requests carry the user's name and the
 * token (`X-SLURM-USER-NAME`, `X-SLURM-USER-TOKEN`), and the jobs run as that user. Failures to reach
 * it or a token it refuses are SshFailures (`unreachable`, `auth`), as for a login node over SSH.
 */
export interface RestLogin {
  mode: 'rest';
  /** For people: `hpc (https://slurm.example.org)`. */
  name: string;
  /** slurmrestd's base URL, no trailing slash. */
  url: string;
  user: string;
  token: string;
}

const API = '/slurm/v0.0.38';
const TIMEOUT_MS = 30_000;

/** A job as slurmrestd lists it. */
export interface RestJob {
  name: string;
  id: string;
  state: string;
  reason: string;
}

/** What a job asks, as the job properties of `POST /job/submit`. */
export interface RestJobAsk {
  name: string;
  cores: number;
  memoryMib: number;
  gpus: number;
  partition: string | null;
  account: string | null;
  qos: string | null;
  timeLimitMinutes: number | null;
}

type Answer = { status: number; body: Record<string, unknown> | null; text: string };

/** slurmrestd's `errors` in a line (`source: description (error)`). */
export function errorsOf(answer: Answer): string {
  const errors = Array.isArray(answer.body?.errors) ? (answer.body.errors as Record<string, unknown>[]) : [];
  const said = errors
    .map((e) => [e.source, e.description, e.error].filter((p) => typeof p === 'string' && p).join(': '))
    .filter(Boolean)
    .join('; ');
  return (said || answer.text.trim() || `HTTP ${answer.status}`).slice(0, 300);
}

async function call(login: RestLogin, method: string, path: string, body?: unknown): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${login.url}${API}${path}`, {
      method,
      headers: {
        'X-SLURM-USER-NAME': login.user,
        'X-SLURM-USER-TOKEN': login.token,
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const cause =
      err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    throw new SshFailure('unreachable', `slurmrestd at ${login.url} did not answer: ${cause}`);
  }
  const text = await response.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON (`Authentication failure`): said as text.
  }
  const answer = { status: response.status, body: parsed, text };
  if (response.status === 401 || response.status === 403)
    throw new SshFailure(
      'auth',
      `slurmrestd at ${login.url} refused the token for ${login.user}: ${errorsOf(answer)}`,
    );
  return answer;
}

/**
 * slurmrestd answers for the user with this token: `ping` reaches slurmctld with it. slurmrestd
 * passes a token it cannot use on to slurmctld, which refuses it: `ping` then fails (500,
 * slurm_load_ctl_conf), said as a refused token.
 */
export async function restPing(login: RestLogin): Promise<void> {
  const answer = await call(login, 'GET', '/ping');
  const pings = Array.isArray(answer.body?.pings) ? (answer.body.pings as Record<string, unknown>[]) : [];
  if (answer.status !== 200 || pings.length === 0)
    throw new SshFailure(
      'auth',
      `slurmrestd at ${login.url} could not reach slurmctld as ${login.user} with this token (${errorsOf(answer)}): is it a token of ${login.user} (scontrol token username=${login.user}), unexpired?`,
    );
  const down = pings.find((p) => p.ping !== 'UP');
  if (down && pings.every((p) => p.ping !== 'UP'))
    throw new SshFailure('unreachable', `slurmctld ${String(down.hostname)} is ${String(down.ping)}`);
}

/** The partitions: `name[*] state nodes` (`*` the default), as sinfo's line says them. */
export async function restPartitions(login: RestLogin): Promise<{ name: string; line: string }[]> {
  const answer = await call(login, 'GET', '/partitions');
  if (answer.status !== 200) throw new Error(`slurmrestd at ${login.url}: ${errorsOf(answer)}`);
  const partitions = Array.isArray(answer.body?.partitions)
    ? (answer.body.partitions as Record<string, unknown>[])
    : [];
  return partitions.map((p) => {
    const flags = Array.isArray(p.flags) ? p.flags : [];
    const name = String(p.name);
    return {
      name,
      line: `${name}${flags.includes('default') ? '*' : ''} ${String(p.state).toLowerCase()} ${String(p.total_nodes)}`,
    };
  });
}

/** The jobs slurmctld still lists (ended ones for MinJobAge), those of these names. */
export async function restJobs(login: RestLogin, names: readonly string[]): Promise<RestJob[]> {
  const answer = await call(login, 'GET', '/jobs');
  if (answer.status !== 200)
    throw new Error(`slurmrestd at ${login.url} did not list the jobs: ${errorsOf(answer)}`);
  const wanted = new Set(names);
  const jobs = Array.isArray(answer.body?.jobs) ? (answer.body.jobs as Record<string, unknown>[]) : [];
  return jobs
    .filter((j) => wanted.has(String(j.name)))
    .map((j) => ({
      name: String(j.name),
      id: String(j.job_id),
      state: String(j.job_state),
      reason: typeof j.state_reason === 'string' ? j.state_reason : '',
    }));
}

const LIVE = new Set(['PENDING', 'CONFIGURING', 'RUNNING', 'REQUEUED', 'SUSPENDED']);

/**
 * Submits the job's script, or finds the job of that name still queued or running (`adopted`: a
 * submission repeated after a crash). The script runs in `/tmp` with its output discarded: it
 * makes its working directory under the user's home and sends its output there itself.
 */
export async function restSubmit(
  login: RestLogin,
  ask: RestJobAsk,
  script: string,
): Promise<{ jobId: string; adopted: boolean }> {
  const live = (await restJobs(login, [ask.name])).find((j) => LIVE.has(j.state));
  if (live) return { jobId: live.id, adopted: true };
  const answer = await call(login, 'POST', '/job/submit', {
    script,
    job: {
      name: ask.name,
      tasks: 1,
      cpus_per_task: ask.cores,
      memory_per_node: ask.memoryMib,
      current_working_directory: '/tmp',
      standard_output: '/dev/null',
      standard_error: '/dev/null',
      environment: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
      ...(ask.gpus > 0 && { gres: `gpu:${ask.gpus}` }),
      ...(ask.partition && { partition: ask.partition }),
      ...(ask.account && { account: ask.account }),
      ...(ask.qos && { qos: ask.qos }),
      ...(ask.timeLimitMinutes && { time_limit: ask.timeLimitMinutes }),
    },
  });
  const id = answer.body?.job_id;
  if (answer.status !== 200 || typeof id !== 'number' || id <= 0)
    throw final(`Slurm refused the job on ${login.name}: ${errorsOf(answer)}`);
  return { jobId: String(id), adopted: false };
}

/** Cancels every job of the name still queued or running. */
export async function restCancel(login: RestLogin, jobName: string): Promise<void> {
  for (const job of await restJobs(login, [jobName])) {
    if (!LIVE.has(job.state)) continue;
    const answer = await call(login, 'DELETE', `/job/${job.id}`);
    if (answer.status !== 200 && !/already completing or completed|Invalid job id/i.test(errorsOf(answer)))
      throw new Error(`slurmrestd at ${login.url} did not cancel job ${job.id}: ${errorsOf(answer)}`);
  }
}
