/** Single-quoted for bash, whatever the value holds. */
const quote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/** What an instance of a container environment runs in (LaunchSpec.container). */
export interface ContainerToRun {
  /** The image as its environment names it (what is pulled). */
  reference: string;
  /** The id its build pulled and checked: what runs (a tag moved since is refused). */
  image: string;
  useEntrypoint: boolean;
}

/** Where the workspace's registry login for the cluster's image is fetched from (cluster token). */
export const REGISTRY_AUTH_PATH = '/api/v2/cluster_facing/registry-auth.json';

/**
 * The end of an instance's user-data (aws/user-data.ts) where its environment is a container image:
 * in place of the host's Python, the agent (fetched to `$WORK/agent`) runs inside the image, as
 * local instances do (local.ts): `podman run --rm --init --network host`, the work dir mounted
 * as `/cumulus` (whatever the host's path: a root's home is no place nobody can reach), the only
 * writable mount, the agent in it read-only, no capabilities, no new privileges, explicit
 * limits, the variables passed by name only (no token on a command line). Podman where the host
 * has it, else docker; neither: it fails saying so (in `$WORK/failed`, which the SSH and Slurm
 * backends read, and to the control plane: the instance in error with the reason).
 *
 * An unprivileged account (an SSH host's, a Slurm job's) runs rootless podman with `--userns=keep-id`:
 * the container's processes are the account's own uid, found and stopped by their backend id as
 * any instance's (with docker, `--user` of the account's uid). Root (a VM) runs the container as
 * nobody (65534), never as root. The image is
 * pulled at each start with the workspace's registry login, fetched from the control plane to a
 * private file and deleted after the pull (never in user-data, never on a command line). Which OCI
 * runtime can start a container is found once per host (podman's default, runc, crun) and kept in
 * `$CUMULUS_WORK_DIR/container-runtime`; CUMULUS_CONTAINER_RUNTIME chooses one.
 */
export function containerRunScript(container: ContainerToRun): string {
  return `fail() {
  echo "$*" >"$WORK/failed"; echo "cumulus: $*" >&2
  # Told to the control plane too (the instance in error, with why), where nothing else reads $WORK: a VM.
  CUMULUS_FAILED="$*" "$PYTHON" - <<'PHONE' >/dev/null 2>&1 || true
import json, os, urllib.request
body = {"backend_id": os.environ["CUMULUS_BACKEND_ID"], "state": "error", "reason": os.environ["CUMULUS_FAILED"][:1000]}
urllib.request.urlopen(urllib.request.Request(
    os.environ["CUMULUS_SERVER"] + "/api/v2/cluster_facing/instance/phone-home/", data=json.dumps(body).encode(),
    method="PATCH", headers={"Authorization": "Bearer " + os.environ["CUMULUS_CLUSTER_TOKEN"],
                             "Content-Type": "application/json"}), timeout=10)
PHONE
  exit 1
}
IMAGE=${quote(container.reference)}
IMAGE_ID=${quote(container.image)}
ROOT="\${CUMULUS_WORK_DIR:-/var/lib/cumulus}"
if command -v podman >/dev/null 2>&1; then ENGINE=podman
elif command -v docker >/dev/null 2>&1; then ENGINE=docker
else fail "Container environments need podman or docker on host $(hostname): neither is installed"; fi
AS=()
if [ "$(id -u)" = 0 ]; then
  # Never root in the container: nobody, owning the instance's work dir.
  AS=(--user 65534:65534); chown -R 65534:65534 "$WORK"
elif [ "$ENGINE" = podman ]; then
  export XDG_RUNTIME_DIR="\${XDG_RUNTIME_DIR:-$ROOT/run}"
  mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
  AS=(--userns=keep-id)
else
  # Docker's daemon is root: the container runs as the account's own uid, not the image's root.
  AS=(--user "$(id -u):$(id -g)")
fi
if [ "\${IMAGE#localhost/}" = "$IMAGE" ]; then
  # The workspace's login for the image's registry, where it has one: a private file, for the pull only.
  AUTH="$WORK/registry-auth"; rm -rf "$AUTH"; (umask 077; mkdir -p "$AUTH")
  "$PYTHON" - "$AUTH/config.json" <<'AUTH' || fail "The registry login for $IMAGE could not be fetched from the control plane"
import os, sys, urllib.error, urllib.request
request = urllib.request.Request(
    os.environ["CUMULUS_SERVER"] + "${REGISTRY_AUTH_PATH}",
    headers={"Authorization": "Bearer " + os.environ["CUMULUS_CLUSTER_TOKEN"]},
)
try:
    with urllib.request.urlopen(request, timeout=30) as answer:
        body = answer.read()
except urllib.error.HTTPError as e:
    if e.code != 404:
        raise
    sys.exit(0)
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
with os.fdopen(fd, "wb") as out:
    out.write(body)
AUTH
  LOGIN=()
  if [ -s "$AUTH/config.json" ]; then
    if [ "$ENGINE" = podman ]; then LOGIN=(--authfile "$AUTH/config.json"); else export DOCKER_CONFIG="$AUTH"; fi
  fi
  pulled=0
  for attempt in 1 2 3; do
    if "$ENGINE" pull --quiet "\${LOGIN[@]}" "$IMAGE" >"$WORK/pull.log" 2>&1; then pulled=1; break; fi
    sleep 2
  done
  rm -rf "$AUTH"; unset DOCKER_CONFIG
  [ $pulled = 1 ] || fail "$ENGINE could not pull $IMAGE on $(hostname): $(tail -n 2 "$WORK/pull.log" | tr '\\n' ' ')"
fi
ID="$("$ENGINE" image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null)" || fail "$IMAGE is not among the images of $(hostname)"
[ "\${ID#sha256:}" = "\${IMAGE_ID#sha256:}" ] || fail "$IMAGE is not the image its environment was built from (built: \${IMAGE_ID#sha256:}, now: \${ID#sha256:}): build the environment again"
case "$(uname -m)/$("$ENGINE" image inspect --format '{{.Architecture}}' "$IMAGE")" in
  x86_64/amd64|aarch64/arm64) ;;
  *) fail "$IMAGE is built for $("$ENGINE" image inspect --format '{{.Architecture}}' "$IMAGE"); $(hostname) is $(uname -m)" ;;
esac
LIMITS=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
RUNTIME=()
if [ -n "\${CUMULUS_CONTAINER_RUNTIME:-}" ]; then RUNTIME=(--runtime "$CUMULUS_CONTAINER_RUNTIME")
elif [ "$ENGINE" = podman ]; then
  # The OCI runtime that starts a container on this host, found once (podman's default may not).
  chosen="$(cat "$ROOT/container-runtime" 2>/dev/null || true)"
  if [ -z "$chosen" ]; then
    for try in default runc crun; do
      flags=(); [ $try = default ] || flags=(--runtime $try)
      if podman run --rm "\${flags[@]}" "\${LIMITS[@]}" "\${AS[@]}" --network none --entrypoint true "$IMAGE" >>"$WORK/pull.log" 2>&1; then
        chosen=$try; echo $try >"$ROOT/container-runtime"; break
      fi
    done
    [ -n "$chosen" ] || fail "podman cannot start a container on $(hostname) with any runtime (default, runc, crun): $(tail -n 2 "$WORK/pull.log" | tr '\\n' ' ')"
  fi
  [ "$chosen" = default ] || RUNTIME=(--runtime "$chosen")
fi
mkdir -p "$WORK/tmp"
[ "$(id -u)" = 0 ] && chown 65534:65534 "$WORK/tmp"
PASS=()
for name in $(compgen -e); do
  case "$name" in
    CUMULUS_WORK_DIR|CUMULUS_PYTHON|CUMULUS_BATCH_ROOT) ;;
    CUMULUS_*|PYTHONUNBUFFERED|CUDA_VISIBLE_DEVICES) PASS+=(--env "$name") ;;
  esac
done
ENTRY=(); ${container.useEntrypoint ? '' : "ENTRY=(--entrypoint '[]')"}
[ "$ENGINE" = docker ] && [ \${#ENTRY[@]} -gt 0 ] && ENTRY=(--entrypoint '')
echo "$ENGINE" >"$WORK/engine"
# A container of this instance left by a crash would hold its name.
"$ENGINE" rm --force "cumulus-$CUMULUS_BACKEND_ID" >/dev/null 2>&1 || true
exec "$ENGINE" run --rm --init --name "cumulus-$CUMULUS_BACKEND_ID" "\${RUNTIME[@]}" "\${LIMITS[@]}" \\
  --security-opt no-new-privileges --cap-drop all --network host "\${AS[@]}" \\
  --volume "$WORK:/cumulus" --volume "$WORK/agent:/cumulus/agent:ro" --workdir /cumulus \\
  --env HOME=/cumulus --env TMPDIR=/cumulus/tmp --env PYTHONPATH=/cumulus/agent --env CUMULUS_BATCH_ROOT=/cumulus/batch \\
  "\${PASS[@]}" "\${ENTRY[@]}" \\
  "$ID" python3 -m cumulus.agent >>"$WORK/agent.log" 2>&1
`;
}
