import type { LaunchSpec } from '../backend.js';
import { containerRunScript } from './container-script.js';

/** Single-quoted for bash, whatever the value holds. */
const quote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/**
 * What every machine's user-data starts with: its variables, then it fetches the agent from the
 * control plane at `agentPath` with the bearer token in `$tokenVar` (retrying while the server is
 * away) and unpacks it in `$WORK/agent`.
 */
function fetchAgent(
  vars: Record<string, string>,
  agentPath: string,
  tokenVar: string,
  cached = false,
): string {
  return `${Object.entries(vars)
    .map(([k, v]) => `export ${k}=${quote(v)}`)
    .join('\n')}
WORK="\${CUMULUS_WORK_DIR:-/var/lib/cumulus}/$CUMULUS_BACKEND_ID"
PYTHON="\${CUMULUS_PYTHON:-python3}"
mkdir -p "$WORK/agent" && cd "$WORK" || exit 1
${cached ? fromCache : ''}for attempt in $(seq 1 60); do
  if "$PYTHON" - <<'FETCH'
import os, urllib.request
request = urllib.request.Request(
    os.environ["CUMULUS_SERVER"] + "${agentPath}",
    headers={"Authorization": "Bearer " + os.environ["${tokenVar}"]},
)
with urllib.request.urlopen(request, timeout=30) as answer, open("agent.tar.gz", "wb") as out:
    out.write(answer.read())
FETCH
  then break; fi
  sleep 2
done
tar -xzf agent.tar.gz -C "$WORK/agent"
${cached ? toCache : ''}`;
}

/**
 * Where a machine keeps the agent for its next instances (CUMULUS_AGENT_CACHE, set by the SSH
 * backend: \`~/.cumulus/agent-<bundle id>\`), an instance copies it instead of fetching it: one
 * Python start and download less per instance. Made whole, then renamed into place.
 */
const fromCache = `if [ -n "\${CUMULUS_AGENT_CACHE:-}" ] && [ -f "$CUMULUS_AGENT_CACHE/.complete" ] && cp -R "$CUMULUS_AGENT_CACHE/cumulus" "$WORK/agent/"; then :; else
`;
const toCache = `if [ -n "\${CUMULUS_AGENT_CACHE:-}" ]; then
  t="$CUMULUS_AGENT_CACHE.$$"; rm -rf "$t"
  { cp -R "$WORK/agent" "$t" && touch "$t/.complete" && mv -T "$t" "$CUMULUS_AGENT_CACHE"; } 2>/dev/null || rm -rf "$t"
fi
fi
`;

/**
 * The user-data a cluster VM boots with: it fetches the instance agent from the control plane
 * with the cluster's token and runs it, exactly as a local instance runs it. The image needs
 * bash and a python3 with `distributed` (CUMULUS_PYTHON overrides which); for a container
 * environment, a python3 (to fetch the agent) and podman or docker: the agent runs in the image
 * (container-script.ts).
 */
export function userDataScript(spec: LaunchSpec): string {
  const vars = instanceVars(spec);
  return `#!/bin/bash
# Cumulus instance ${spec.name}: fetch the agent from the control plane and run it.
set -eu
${spec.sshPublicKey ? authorizeKey(spec.sshPublicKey) : ''}${fetchAgent(vars, '/api/v2/cluster_facing/agent.tar.gz', 'CUMULUS_CLUSTER_TOKEN', true)}export PYTHONPATH="$WORK/agent" PYTHONUNBUFFERED=1 CUMULUS_BATCH_ROOT="$WORK/batch"
${spec.container ? containerRunScript(spec.container) : 'exec "$PYTHON" -m cumulus.agent >>"$WORK/agent.log" 2>&1\n'}`;
}

/** What an instance's agent is told of itself: its server, its cluster's token, who it is. */
export function instanceVars(spec: LaunchSpec): Record<string, string> {
  return {
    CUMULUS_SERVER: spec.serverUrl,
    CUMULUS_CLUSTER_TOKEN: spec.clusterToken,
    CUMULUS_BACKEND_ID: spec.backendId,
    CUMULUS_INSTANCE_ID: String(spec.instanceId),
    CUMULUS_AGENT_UNREACHABLE_SECONDS: String(spec.unreachableTimeoutMs / 1000),
  };
}

/** What a build machine boots with: where the control plane is, the build's token, its backend id. */
export interface BuildMachineSpec {
  buildId: number;
  backendId: string;
  serverUrl: string;
  token: string;
}

/**
 * The user-data a build machine boots with: it fetches the agent with the build's token, runs
 * `python -m cumulus.agent.build` (which reports its log and uploads the environment's archive).
 * The builder terminates the machine once the build has ended, whichever way. The image is
 * the workspace's cluster image, so the environment is built on the Python its clusters run.
 */
export function buildUserDataScript(spec: BuildMachineSpec): string {
  const vars = {
    CUMULUS_SERVER: spec.serverUrl,
    CUMULUS_BUILD_TOKEN: spec.token,
    CUMULUS_BACKEND_ID: spec.backendId,
  };
  const agent = '/api/v2/cluster_facing/software-environment/agent.tar.gz';
  return `#!/bin/bash
# Cumulus build machine for build ${spec.buildId}: fetch the agent, build, report.
set -u
${fetchAgent(vars, agent, 'CUMULUS_BUILD_TOKEN')}export PYTHONPATH="$WORK/agent" PYTHONUNBUFFERED=1 CUMULUS_BUILD_ROOT="$WORK/builds"
"$PYTHON" -m cumulus.agent.build >>"$WORK/build.log" 2>&1
`;
}

/**
 * The cluster's key in the authorized_keys of the user clients sign in as (`ubuntu`, client-contract.md
 * 2.5), or of root where the image has no such user; CUMULUS_SSH_HOME overrides whose (the tests' rig).
 */
function authorizeKey(publicKey: string): string {
  return `SSH_HOME="\${CUMULUS_SSH_HOME:-$(getent passwd ubuntu | cut -d: -f6 || true)}"
SSH_HOME="\${SSH_HOME:-$HOME}"
mkdir -p "$SSH_HOME/.ssh" && chmod 700 "$SSH_HOME/.ssh"
grep -qxF ${quote(publicKey)} "$SSH_HOME/.ssh/authorized_keys" 2>/dev/null || echo ${quote(publicKey)} >>"$SSH_HOME/.ssh/authorized_keys"
chmod 600 "$SSH_HOME/.ssh/authorized_keys"
if [ -z "\${CUMULUS_SSH_HOME:-}" ] && id ubuntu >/dev/null 2>&1; then chown -R ubuntu: "$SSH_HOME/.ssh"; fi
`;
}
