#!/usr/bin/env bash
# Every check and every test, as CI runs them (CI then repeats the server suite on PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s (at %ds)\n' "$*" "$SECONDS"; }

bash scripts/setup.sh --browser --aws --ssh --containers --slurm
step "lint";       npx biome check .
step "typecheck";  npm run typecheck --silent
step "api contract"; npm run api:check --silent
step "server tests (${DATABASE_URL:+PostgreSQL}${DATABASE_URL:-embedded PGlite})"
npm test -w apps/server --silent
step "console tests"; npm test -w apps/web --silent
step "console and server build"; npm run build --silent

# The browser and Python suites spend most of their time waiting on real processes (clusters,
# builds, the product's timers): they run side by side in two lanes, the second lane's output
# printed when both are done. With CUMULUS_TEST_POSTGRES_URL (an empty database; CI sets it), the
# server suite's PostgreSQL pass, in three shards of its files run one at a time, follows in both
# lanes: the first shard follows the browser suite, the other two the Python suite, which ends
# earlier; the files that change the machine's network come last, alone (a network change fails the
# browser's requests in flight; apps/server/test/helpers/database-agnostic.ts says which). The second lane's shards
# copy their databases from a template of their own (PostgreSQL copies a template only while no one
# else is connected to it, and each shard's global setup connects to migrate it).
pg_url="${CUMULUS_TEST_POSTGRES_URL:-}"
pg_second=""
if [ -n "$pg_url" ]; then
  pg_second="${pg_url%/*}/$(basename "${pg_url%%\?*}")_second"
  psql "${pg_url%/*}/postgres" -qc "create database \"$(basename "${pg_second}")\"" >/dev/null
fi
pg_shard() { # url shard
  DATABASE_URL="$1" CUMULUS_TEST_NETWORK=without npm test -w apps/server --silent -- --maxWorkers=1 --shard="$2"
}
lane_log="$(mktemp)"
# What failed, again at the end: CI's record keeps only the tail of this output.
failures() { # log
  sed 's/\x1b\[[0-9;]*m//g' "$1" | sed -n '/Failed Tests/,/Test Files/p; /^FAIL:\|^ERROR:\|^Traceback/,+12p' | head -150
}
lane() {
  local status=0
  echo "== python tests (client against a real server)"
  "${CUMULUS_PYTHON:-/usr/bin/python3}" scripts/python-tests.py 2>&1 || status=1
  if [ -n "$pg_second" ]; then
    for shard in 2/3 3/3; do
      echo; echo "== server tests on PostgreSQL, shard $shard (at ${SECONDS}s)"
      pg_shard "$pg_second" "$shard" 2>&1 || status=$((status | 2))
    done
  fi
  return "$status"
}
cleanup() {
  pkill -TERM -P "$lane_pid" || true
  kill -TERM "$lane_pid" 2>/dev/null && { wait "$lane_pid" || true; }
  rm -f "$lane_log"
  if [ -n "$pg_second" ]; then
    psql "${pg_url%/*}/postgres" -qc "drop database if exists \"$(basename "${pg_second}")\" with (force)" >/dev/null || true
  fi
}
step "browser tests (built console on the real server, in Chromium), beside them the Python tests${pg_url:+; then the server tests on PostgreSQL in both lanes}"
lane >"$lane_log" 2>&1 &
lane_pid=$!
# Ended early (Ctrl-C, a failed step): the other lane stops too, closing the servers it started.
trap cleanup EXIT
browser=0
browser_log="$(mktemp)"
npm run test:e2e -w apps/web --silent 2>&1 | tee "$browser_log" || browser=$?
postgres=0
if [ -n "$pg_url" ]; then
  step "server tests on PostgreSQL, shard 1/3"
  pg_shard "$pg_url" 1/3 || postgres=1
fi
lane_status=0
wait "$lane_pid" || lane_status=$?
step "the other lane's output"
cat "$lane_log"
lane_failures="$(failures "$lane_log")"
trap - EXIT
cleanup
if [ -n "$pg_url" ]; then
  # Last, alone: what changes this machine's network (the browser's requests fail meanwhile, and
  # the other lane's clients are kept out of its way too).
  step "server tests on PostgreSQL that change the machine's network"
  DATABASE_URL="$pg_url" CUMULUS_TEST_NETWORK=only npm test -w apps/server --silent || postgres=1
fi
python=$((lane_status & 1))
postgres=$((postgres | ((lane_status & 2) >> 1)))
if [ "$browser" -ne 0 ] || [ "$python" -ne 0 ] || [ "$postgres" -ne 0 ]; then
  [ "$browser" -ne 0 ] && { step "what failed in the browser tests"; failures "$browser_log"; }
  [ -n "$lane_failures" ] && { step "what failed in the other lane"; echo "$lane_failures"; }
  printf '\n== failed: browser tests exit %d, python tests failed %d, server tests on PostgreSQL failed %d\n' "$browser" "$python" "$postgres"
  exit 1
fi
printf '\n== all tests passed in %ds\n' "$SECONDS"
