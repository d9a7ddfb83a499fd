import { final } from '../errors.js';
import { runOn, type SshTarget } from './connection.js';

/** Single-quoted for sh, whatever the value holds. */
export const quote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/** Backend ids are ours (letters, digits, dashes): checked before they go into a command. */
export const safeId = (id: string) => {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw final(`Backend id ${id} cannot name an SSH instance.`);
  return id;
};

/**
 * Sets `$w` (sh) to the id an instance's processes were started with: the warm process it took
 * (`~/.cumulus/<id>/warm`, ssh/warm.ts), else its own backend id.
 */
export const startedAs = (id: string) =>
  `w=; [ -f "$HOME/.cumulus/${id}/warm" ] && read -r w <"$HOME/.cumulus/${id}/warm"; case "$w" in warm-*) case "$w" in *[!a-z0-9-]*) w=${id} ;; esac ;; *) w=${id} ;; esac`;

/**
 * Signals the processes of a backend id (or of the warm process it took), TERM then KILL after the
 * grace; prints `gone` once none is left (and forgets the warm process).
 */
export const stopScript = (id: string, graceSeconds: number) => `
${startedAs(id)}
pids() { grep -lzx -e 'CUMULUS_BACKEND_ID=${id}' -e "CUMULUS_BACKEND_ID=$w" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3; }
p=$(pids); [ -n "$p" ] && kill -TERM $p 2>/dev/null
i=0; while [ -n "$(pids)" ] && [ $i -lt ${graceSeconds * 10} ]; do sleep 0.1; i=$((i+1)); done
p=$(pids); [ -n "$p" ] && kill -KILL $p 2>/dev/null
sleep 0.2; [ -z "$(pids)" ] && rm -f "$HOME/.cumulus/${id}/warm" && echo gone; true
`;

/**
 * Starts `script` (an agent's user-data: aws/user-data.ts) detached on the host, in
 * `~/.cumulus/<id>` (kept as `launch.sh`, its output in `launch.log`), with `env` (values as sh
 * reads them: quote what is not ours) and CUMULUS_BACKEND_ID set from its first process on, so that
 * its processes are found by that id while it is still fetching the agent. Answers the failure's
 * text, or null once it runs.
 */
export async function startDetached(
  host: SshTarget,
  id: string,
  script: string,
  env: Record<string, string>,
): Promise<string | null> {
  const result = await runOn(host, detachedCommand(id, env), { stdin: script });
  return startFailure(result);
}

/** The command of `startDetached` (its stdin the script): prints `started` once it runs. */
export function detachedCommand(id: string, env: Record<string, string>): string {
  const own = safeId(id);
  const dir = `"$HOME/.cumulus/${own}"`;
  const vars = { CUMULUS_BACKEND_ID: own, ...env };
  return `mkdir -p ${dir} && cd ${dir} && cat >launch.sh && (${Object.entries(vars)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')} setsid bash launch.sh </dev/null >>launch.log 2>&1 &) && echo started`;
}

/** Null where a start said `started` (or `took`: a warm process), else what went wrong. */
export function startFailure(result: { code: number | null; stdout: string; stderr: string }): string | null {
  return result.code === 0 && /^(started|took )/m.test(result.stdout)
    ? null
    : (result.stderr || result.stdout).trim().slice(0, 300);
}

/**
 * Why instances whose processes are gone ended, where their start said (`~/.cumulus/<id>/failed`:
 * a container environment's host without podman, an image it could not pull): by backend id.
 * `run` runs a script as the account (an SSH host's, a Slurm login node's on the shared home).
 */
export async function whyFailed(
  run: (script: string) => Promise<{ stdout: string }>,
  backendIds: readonly string[],
): Promise<Map<string, string>> {
  if (backendIds.length === 0) return new Map();
  const ids = backendIds.map(safeId).join(' ');
  const script = `for id in ${ids}; do f="$HOME/.cumulus/$id/failed"; [ -s "$f" ] && printf '%s\\t%s\\n' "$id" "$(head -c 500 "$f" | tr '\\n' ' ')"; done; true`;
  const result = await run(script).catch(() => null);
  const reasons = new Map<string, string>();
  for (const line of result?.stdout.split('\n') ?? []) {
    const [id, reason] = line.split('\t');
    if (id && reason) reasons.set(id, reason.trim());
  }
  return reasons;
}
