#!/usr/bin/env bash
# The container images the tests run (made once per machine, then found in podman's storage):
#   localhost/cumulus-test/dask:bookworm    Debian bookworm (minbase) with python3 and Debian's Dask,
#                                           and /etc/cumulus-test-image naming it
#   localhost/cumulus-test/nodask:bookworm  the same without distributed (an image a cluster cannot run)
#   localhost/cumulus-test/entrypoint:bookworm  the first with an entrypoint that refuses to run anything
#                                           (runs only with the entrypoint ignored)
# Built from Debian's packages with debootstrap (about a minute) and `podman import`: no registry
# is needed. Prints nothing when both exist already.
set -euo pipefail
base=localhost/cumulus-test/dask:bookworm
nodask=localhost/cumulus-test/nodask:bookworm
entrypoint=localhost/cumulus-test/entrypoint:bookworm
podman() { command podman "$@"; }
# One maker at a time: test files that need the images call this at once, and wait for the first.
exec 9>/var/tmp/cumulus-container-images.lock
flock 9

# Made before its root was 0755 (rootless podman's --userns=keep-id runs the image as a user, who
# could not reach a file in it): made again, with the images made from it.
if podman image exists "$base" &&
  [ "$(podman image inspect --format '{{index .Config.Labels "cumulus.test.root"}}' "$base")" != 755 ]; then
  podman rmi --force "$base" "$nodask" "$entrypoint" >/dev/null 2>&1 || true
fi

if ! podman image exists "$base"; then
  echo "container-images: building $base with debootstrap (about a minute)" >&2
  root="$(mktemp -d /var/tmp/cumulus-rootfs.XXXXXX)"
  trap 'rm -rf "$root"' EXIT
  mirror="${CUMULUS_DEBIAN_MIRROR:-$(sed -n 's/^deb \(http[^ ]*\) bookworm main.*/\1/p' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1 || true)}"
  if [ -z "$mirror" ]; then
    mirror="$(sed -n 's/^URIs: *\(http[^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 || true)"
  fi
  debootstrap --variant=minbase --include=python3,python3-distributed bookworm "$root" ${mirror:+"$mirror"} >/dev/null
  echo "$base" >"$root/etc/cumulus-test-image"
  rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
  # mktemp made the root 0700: an image's / is 0755, or no user but root can run anything in it.
  chmod 755 "$root"
  tar -C "$root" -c . | podman import --quiet --change 'LABEL cumulus.test.root=755' - "$base" >/dev/null
  rm -rf "$root"
  trap - EXIT
fi

if ! podman image exists "$nodask"; then
  name="cumulus-nodask-$$"
  podman run --name "$name" --runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
    "$base" sh -c 'rm -rf /usr/lib/python3/dist-packages/distributed && echo nodask > /etc/cumulus-test-image' >/dev/null
  podman commit --quiet "$name" "$nodask" >/dev/null
  podman rm "$name" >/dev/null
fi

if ! podman image exists "$entrypoint"; then
  name="cumulus-entrypoint-$$"
  podman create --name "$name" "$base" true >/dev/null
  podman commit --quiet --change 'ENTRYPOINT ["/bin/sh", "-c", "echo this entrypoint runs nothing >&2; exit 3"]' \
    "$name" "$entrypoint" >/dev/null
  podman rm "$name" >/dev/null
fi
