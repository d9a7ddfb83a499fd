#!/usr/bin/env bash
# Installs what Cumulus needs beyond npm, when it is missing:
#   - Debian's python3-distributed (real Dask for local clusters), python3-pip (software builds) and
#     python3-notebook (Jupyter for notebook clusters, unless JupyterLab is there), for /usr/bin/python3
#     or $CUMULUS_PYTHON
#   - with --browser: Debian's chromium, for the browser tests
#   - with --bench: Debian's wrk, the HTTP load generator of `npm run bench`
#   - with --containers: Debian's podman, runc, uidmap (rootless podman), debootstrap and docker-registry (container
#     environments; the tests build their base image with scripts/container-images.sh)
#   - with --ssh: Debian's openssh-server, whose sshd the SSH-host tests start on loopback addresses
#   - with --slurm: Debian's slurmctld, slurmd, slurmrestd, slurm-client and munge (Slurm 22.05),
#     the daemons apps/server/test/helpers/slurm.ts starts for the Slurm backend's tests
#   - with --aws: moto's AWS API server (`moto_server`, pip package moto[server]) the EC2 tests and
#     bench run against
# Prints what to do where it cannot install (no root, no apt-get).
set -euo pipefail

want_browser=false
want_bench=false
want_aws=false
want_ssh=false
want_containers=false
want_slurm=false
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=true ;;
    --bench) want_bench=true ;;
    --aws) want_aws=true ;;
    --ssh) want_ssh=true ;;
    --containers) want_containers=true ;;
    --slurm) want_slurm=true ;;
    *) echo "usage: $0 [--browser] [--bench] [--aws] [--ssh] [--containers] [--slurm]" >&2; exit 2 ;;
  esac
done

has_moto() { command -v moto_server >/dev/null 2>&1 || python3 -m moto.server --help >/dev/null 2>&1; }
if $want_aws && ! has_moto; then
  echo "setup: installing moto[server] (AWS's APIs on a local port, for the EC2 tests) with pip" >&2
  python3 -m pip install --quiet 'moto[server]' >/dev/null 2>&1 ||
    python3 -m pip install --quiet --break-system-packages 'moto[server]' >/dev/null 2>&1 || true
  if ! has_moto; then
    echo "setup: moto_server is missing and 'python3 -m pip install moto[server]' failed: the AWS tests need it" >&2
    exit 1
  fi
fi

python="${CUMULUS_PYTHON:-/usr/bin/python3}"
# One interpreter start finds what is missing (find_spec imports nothing: it is quick).
missing=" $("$python" -c 'import importlib.util as u; print(" ".join(m for m in ("distributed", "pip", "jupyterlab", "notebook") if u.find_spec(m) is None))' 2>/dev/null || echo distributed pip jupyterlab notebook) "
packages=()
if [[ $missing == *" distributed "* ]]; then packages+=(python3-distributed); fi
# Software environments are built with the interpreter's own pip.
if [[ $missing == *" pip "* ]]; then packages+=(python3-pip); fi
# Notebook clusters run Jupyter with the clusters' Python: JupyterLab, or Debian's Jupyter Notebook.
if [[ $missing == *" jupyterlab "* && $missing == *" notebook "* ]]; then packages+=(python3-notebook); fi
if $want_browser && ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then packages+=(chromium); fi
if $want_bench && ! command -v wrk >/dev/null 2>&1; then packages+=(wrk); fi
if $want_ssh && [ ! -x /usr/sbin/sshd ]; then packages+=(openssh-server); fi
if $want_slurm; then
  [ -x /usr/sbin/slurmctld ] || packages+=(slurmctld)
  [ -x /usr/sbin/slurmd ] || packages+=(slurmd)
  [ -x /usr/sbin/slurmrestd ] || packages+=(slurmrestd)
  command -v sbatch >/dev/null 2>&1 || packages+=(slurm-client)
  [ -x /usr/sbin/munged ] || packages+=(munge)
fi
if $want_containers; then
  command -v podman >/dev/null 2>&1 || packages+=(podman)
  command -v runc >/dev/null 2>&1 || packages+=(runc)
  # Rootless podman (an SSH host's or a Slurm job's account; the test rigs' accounts are given
  # their /etc/subuid and /etc/subgid ranges by test/helpers/subordinate-ids.ts) maps uids with it.
  command -v newuidmap >/dev/null 2>&1 || packages+=(uidmap)
  command -v debootstrap >/dev/null 2>&1 || packages+=(debootstrap)
  [ -x /usr/bin/docker-registry ] || packages+=(docker-registry)
fi
[ ${#packages[@]} -eq 0 ] && exit 0

echo "setup: installing ${packages[*]} from Debian's packages" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: apt-get is not available; install ${packages[*]} (or set CUMULUS_PYTHON to a Python with 'distributed')" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
    echo "setup: run as root, or install: apt-get install -y ${packages[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1 ||
  { "${sudo[@]}" apt-get update -qq >/dev/null && "${sudo[@]}" apt-get install -y -qq "${packages[@]}" >/dev/null; }
echo "setup: installed ${packages[*]}" >&2
