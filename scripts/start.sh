#!/usr/bin/env bash
# Starts Cumulus on the embedded defaults (or the configuration in the environment):
# builds the console and the server, then serves both on http://${HOST:-127.0.0.1}:${PORT:-8000}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || echo "start: continuing without local Dask; clusters will not start until it is installed" >&2
npm run build --silent
exec node apps/server/dist/main.js
