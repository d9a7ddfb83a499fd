import type { LaunchSpec } from '../backend.js';

/** Single-quoted for bash, whatever the value holds. */
const quote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/**
 * The user-data a cluster VM boots with: it fetches the instance agent from the control plane
 * with the cluster's token and runs it, exactly as a local instance runs it. The image needs
 * bash and a python3 with `distributed` (CUMULUS_PYTHON overrides which).
 */
export function userDataScript(spec: LaunchSpec): string {
  const vars = {
    CUMULUS_SERVER: spec.serverUrl,
    CUMULUS_CLUSTER_TOKEN: spec.clusterToken,
    CUMULUS_BACKEND_ID: spec.backendId,
    CUMULUS_INSTANCE_ID: String(spec.instanceId),
    CUMULUS_AGENT_UNREACHABLE_SECONDS: String(spec.unreachableTimeoutMs / 1000),
  };
  return `#!/bin/bash
# Cumulus instance ${spec.name}: fetch the agent from the control plane and run it.
set -eu
${Object.entries(vars)
  .map(([k, v]) => `export ${k}=${quote(v)}`)
  .join('\n')}
WORK="\${CUMULUS_WORK_DIR:-/var/lib/cumulus}/$CUMULUS_BACKEND_ID"
PYTHON="\${CUMULUS_PYTHON:-python3}"
mkdir -p "$WORK/agent" && cd "$WORK"
for attempt in $(seq 1 60); do
  if "$PYTHON" - <<'FETCH'
import os, urllib.request
request = urllib.request.Request(
    os.environ["CUMULUS_SERVER"] + "/api/v2/cluster_facing/agent.tar.gz",
    headers={"Authorization": "Bearer " + os.environ["CUMULUS_CLUSTER_TOKEN"]},
)
with urllib.request.urlopen(request, timeout=30) as answer, open("agent.tar.gz", "wb") as out:
    out.write(answer.read())
FETCH
  then break; fi
  sleep 2
done
tar -xzf agent.tar.gz -C "$WORK/agent"
export PYTHONPATH="$WORK/agent" PYTHONUNBUFFERED=1 CUMULUS_BATCH_ROOT="$WORK/batch"
exec "$PYTHON" -m cumulus.agent >>"$WORK/agent.log" 2>&1
`;
}
