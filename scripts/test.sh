#!/usr/bin/env bash
# Every check and every test, as CI runs them (CI then repeats the server suite on PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s (at %ds)\n' "$*" "$SECONDS"; }

bash scripts/setup.sh --browser --aws
step "lint";       npx biome check .
step "typecheck";  npm run typecheck --silent
step "api contract"; npm run api:check --silent
step "server tests (${DATABASE_URL:+PostgreSQL}${DATABASE_URL:-embedded PGlite})"
npm test -w apps/server --silent
if [ -f apps/web/vitest.config.ts ] || [ -f apps/web/vite.config.ts ]; then
  step "console tests"; npm test -w apps/web --silent
  step "console build"; npm run build -w apps/web --silent
  step "browser tests (built console on the real server, in Chromium)"; npm run test:e2e -w apps/web --silent
fi
step "python tests (client against a real server)"
"${CUMULUS_PYTHON:-/usr/bin/python3}" -m unittest discover -s python/tests -t python
printf '\n== all tests passed in %ds\n' "$SECONDS"
