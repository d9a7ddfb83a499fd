import { createHash } from 'node:crypto';
import { agentBundle, agentBundleId } from '../agent-bundle.js';
import { runOn, type SshTarget } from './connection.js';
import { quote, safeId } from './detached.js';

/** A host as its warm processes need it: reached over SSH, with its id and interpreter. */
export interface WarmHost extends SshTarget {
  id: number;
  /** The interpreter with `distributed` on the host (the instances' CUMULUS_PYTHON). */
  python: string;
}

export interface SshWarmOptions {
  /** Warm processes kept waiting on each healthy host (CUMULUS_SSH_WARM_PROCESSES); 0: none. */
  size: number;
  /** How long a pool that no server keeps waits before its processes leave it. */
  idleSeconds: number;
}

/** A pool's processes leave it after this long unkept; the hosts' check keeps it every 5 minutes. */
export const WARM_IDLE_SECONDS = 15 * 60;

/**
 * The pool's directory under `~/.cumulus/warm`: one per registration (hosts are a workspace's),
 * agent bundle (a server of another version takes none of another's) and interpreter.
 */
export async function poolOf(host: WarmHost): Promise<string> {
  const python = createHash('sha256').update(host.python).digest('hex').slice(0, 8);
  return `${host.id}-${await agentBundleId()}-${python}`;
}

/** The copy of the agent a host keeps (aws/user-data.ts), for sh. */
export const agentCacheOf = async () => `"$HOME/.cumulus/agent-${await agentBundleId()}"`;

/** The backend ids of the account's live warm processes, newline-framed for `case` (sh). */
const LIVE_WARM = `ids="
$(grep -zh '^CUMULUS_BACKEND_ID=warm-' /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n')
"
live() { case "$ids" in *"
CUMULUS_BACKEND_ID=$1
"*) return 0 ;; esac; return 1; }`;

/** Kills the processes started with the backend id `$1` (sh). */
const KILL_ID = `kill_id() { for p in $(grep -lzx "CUMULUS_BACKEND_ID=$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do kill -KILL "$p" 2>/dev/null; done; }`;

/**
 * Keeps `size` warm processes in the host's pool: the dead ones' directories go, new ones start
 * (`python -m cumulus.agent.warm`, importing the agent from the host's copy of it), and the pool is
 * marked kept. Answers `need-agent` where the host has no copy of this server's agent yet.
 */
async function fillScript(host: WarmHost, options: SshWarmOptions): Promise<string> {
  return `set -u
C=${await agentCacheOf()}; P="$HOME/.cumulus/warm/${await poolOf(host)}"
[ -f "$C/.complete" ] || { echo need-agent; exit 0; }
mkdir -p "$P" && chmod 700 "$HOME/.cumulus/warm" && cd "$P" || exit 1
exec 9>.lock
flock -w 10 9 || exit 0
touch .kept
${LIVE_WARM}
n=0
for w in warm-*; do
  [ -d "$w" ] || continue
  if live "$w"; then n=$((n+1)); else rm -rf "$w"; fi
done
while [ $n -lt ${Math.trunc(options.size)} ]; do
  w=warm-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \\n')
  mkdir "$w" && mkfifo -m 600 "$w/in" || break
  # No shell stays behind it: nothing holds the lock (fd 9) or the SSH session's output.
  (cd "$w" && exec 9>&- </dev/null >out 2>err && export CUMULUS_BACKEND_ID=$w CUMULUS_WARM_DIR="$P/$w" CUMULUS_WARM_FIFO="$P/$w/in" CUMULUS_WARM_KEPT="$P/.kept" CUMULUS_WARM_IDLE_SECONDS=${Math.trunc(options.idleSeconds)} PYTHONPATH="$C" PYTHONUNBUFFERED=1 && exec setsid ${quote(host.python)} -m cumulus.agent.warm) &
  n=$((n+1))
done
echo "warm $n"
`;
}

/** Unpacks the agent sent on stdin as the host's copy (made whole, then renamed into place). */
const unpackAgent = (cache: string) => `C=${cache}; [ -f "$C/.complete" ] && exit 0
t="$C.$$"; rm -rf "$t"; mkdir -p "$t" && tar -xzf - -C "$t" && touch "$t/.complete" && mv -T "$t" "$C" 2>/dev/null || rm -rf "$t"
[ -f "$C/.complete" ]`;

/**
 * Fills the host's pool (its check does, every few minutes, and the backend after each take):
 * sends the agent first where the host has no copy of it. Answers how many are there or starting.
 */
export async function keepWarm(host: WarmHost, options: SshWarmOptions): Promise<number> {
  if (options.size <= 0) return 0;
  const script = await fillScript(host, options);
  let result = await runOn(host, script);
  if (result.stdout.includes('need-agent')) {
    const sent = await runOn(host, unpackAgent(await agentCacheOf()), { stdin: await agentBundle() });
    if (sent.code !== 0) throw new Error(`Could not copy the agent to ${host.name}: ${sent.stderr.trim()}`);
    result = await runOn(host, script);
  }
  const kept = /warm (\d+)/.exec(result.stdout);
  if (!kept) throw new Error(`Could not keep warm processes on ${host.name}: ${result.stderr.trim()}`);
  return Number(kept[1]);
}

/** Ends the host's warm processes of every pool of its registration (the host is removed). */
export async function coolHost(host: WarmHost): Promise<void> {
  await runOn(
    host,
    `${KILL_ID}
for d in "$HOME"/.cumulus/warm/${host.id}-*/warm-*; do [ -d "$d" ] && kill_id "\${d##*/}"; done
rm -rf "$HOME"/.cumulus/warm/${host.id}-*; true`,
  );
}

/**
 * The script that makes instance `backendId` of a warm process in `pool`, else runs `cold`.
 * Its stdin is the assignment (one line of JSON: work dir, environment; a secret, so never on a
 * command line) followed by what `cold` reads. A ready, live process's directory is moved to the
 * instance's (`mv`: of two takers, one wins), which records the warm id (`warm`: what its processes
 * are found by, their environment keeping the id they started with); it is told the assignment
 * through its FIFO and says `taken`. Prints `took <warm id>`, or what `cold` prints.
 */
export function takeScript(backendId: string, pool: string, cold: string): string {
  const id = safeId(backendId);
  return `D="$HOME/.cumulus/${id}"
IFS= read -r assignment
if [ ! -e "$D" ] && cd "$HOME/.cumulus/warm/${safeId(pool)}" 2>/dev/null; then
${LIVE_WARM}
${KILL_ID}
  for w in warm-*; do
    grep -qsx ready "$w/out" && live "$w" || continue
    mv -T "$w" "$D" 2>/dev/null || continue
    cd "$D" && echo "$w" >warm
    if printf '%s\\n' "$assignment" | timeout 2 tee in >/dev/null; then
      for i in $(seq 300); do
        grep -qsx taken out && { cat >/dev/null; echo "took $w"; exit 0; }
        sleep 0.01
      done
    fi
    kill_id "$w"; rm -f warm
    break
  done
  cd "$HOME"
fi
${cold}`;
}

/** The script's answer: the warm id it took, or null (it started cold). */
export const tookWarm = (stdout: string): string | null =>
  /^took (warm-[0-9a-f]+)$/m.exec(stdout)?.[1] ?? null;
