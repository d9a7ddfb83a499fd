#!/usr/bin/env bash
# Two local container registries for the tests (Debian's docker-registry, on loopback, plain HTTP),
# holding the test image of scripts/container-images.sh as cumulus-test/dask:bookworm:
#   public   anyone pulls
#   private  pulls need the user and password this script prints (htpasswd, bcrypt)
# Usage: container-registry.sh DIR   starts both in the background (their pids in DIR/pids: the
# caller stops them), writes DIR/registries.conf (both registries insecure, for podman's
# CONTAINERS_REGISTRIES_CONF) and prints one JSON line: {"public", "private", "username",
# "password", "registries_conf", "pids"}.
# The two serve the same storage, filled once per machine and image (pushed to the public one; the
# slow part, about 10 s) under $CUMULUS_TEST_REGISTRY_CACHE (default /var/tmp/cumulus-test-registry).
set -euo pipefail
dir="${1:?usage: container-registry.sh DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
image=localhost/cumulus-test/dask:bookworm
bash "$here/container-images.sh"
command -v docker-registry >/dev/null || {
  echo "container-registry: docker-registry is missing (scripts/setup.sh --containers installs it)" >&2
  exit 1
}
mkdir -p "$dir"
id="$(podman image inspect --format '{{.Id}}' "$image")"
cache="${CUMULUS_TEST_REGISTRY_CACHE:-/var/tmp/cumulus-test-registry}"
storage="$cache/${id:0:12}"
mkdir -p "$storage"

free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
username=cumulus-test
password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
# bcrypt as docker-registry's htpasswd reads it (libxcrypt's $2b$, cost 4: tests need no strength).
/usr/bin/python3 -W ignore -c 'import crypt, sys; print(sys.argv[1] + ":" + crypt.crypt(sys.argv[2], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))' \
  "$username" "$password" >"$dir/htpasswd"

start() { # name port [auth]
  cat >"$dir/$1.yml" <<EOF
version: 0.1
log:
  level: error
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $storage
http:
  addr: 127.0.0.1:$2
  secret: cumulus-test-$1
EOF
  if [ "${3:-}" = auth ]; then
    printf 'auth:\n  htpasswd:\n    realm: cumulus-test\n    path: %s\n' "$dir/htpasswd" >>"$dir/$1.yml"
  fi
  setsid docker-registry serve "$dir/$1.yml" >"$dir/$1.log" 2>&1 </dev/null &
  echo $! >>"$dir/pids"
  for _ in $(seq 100); do
    /usr/bin/python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$2" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "container-registry: the $1 registry did not listen on 127.0.0.1:$2: $(cat "$dir/$1.log")" >&2
  exit 1
}
: >"$dir/pids"
public_port="$(free_port)"
start public "$public_port"
private_port="$(free_port)"
start private "$private_port" auth
cat >"$dir/registries.conf" <<EOF
[[registry]]
location = "127.0.0.1:$public_port"
insecure = true

[[registry]]
location = "127.0.0.1:$private_port"
insecure = true
EOF

# Filled once per image: the storage both registries serve.
(
  flock 9
  if [ ! -e "$storage/pushed" ]; then
    echo "container-registry: pushing $image to the test registries' storage (once per image)" >&2
    podman push --quiet --tls-verify=false "$image" "127.0.0.1:$public_port/cumulus-test/dask:bookworm" >/dev/null
    touch "$storage/pushed"
  fi
) 9>"$storage.lock"

printf '{"public": "127.0.0.1:%s", "private": "127.0.0.1:%s", "username": "%s", "password": "%s", "registries_conf": "%s", "pids": [%s]}\n' \
  "$public_port" "$private_port" "$username" "$password" "$dir/registries.conf" "$(paste -sd, "$dir/pids")"
