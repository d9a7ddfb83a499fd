#!/usr/bin/env bash
# Starts Cumulus on the embedded defaults (or the configuration in the environment): builds the
# console and the server where their sources changed since their last build (one line per part
# built; nothing on a built tree), then serves both on http://${HOST:-127.0.0.1}:${PORT:-8000}.
# CUMULUS_BUILD_ON_START=never serves what is built as it is; =always builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || echo "start: continuing without local Dask; clusters will not start until it is installed" >&2
node scripts/build-if-stale.mjs
exec node apps/server/dist/main.js
