#!/usr/bin/env bash
# `make lint` for the browser table: its JS type-checked against openapi/openapi.json (tsc --checkJs) and linted
# (eslint). Without node/npm the step is skipped with a message, unless TIENLEN_REQUIRE_TOOLS=1 (CI): then it fails.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "${TIENLEN_REQUIRE_TOOLS:-}" = "1" ]; then
    echo "clients/web: node and npm are required (TIENLEN_REQUIRE_TOOLS=1): apt-get install nodejs npm" >&2
    exit 1
  fi
  echo "clients/web: SKIPPED the type check and lint of the browser table: node/npm not found (apt-get install nodejs npm)"
  exit 0
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund --silent
  touch node_modules
fi
# The committed types must be those of the committed OpenAPI document.
node scripts/types.mjs ../../openapi/openapi.json node_modules/.openapi.d.ts
if ! cmp -s node_modules/.openapi.d.ts types/openapi.d.ts; then
  echo "clients/web/types/openapi.d.ts is stale: run 'cd clients/web && npm run types'" >&2
  exit 1
fi
npm run -s check
npm run -s lint
echo "clients/web: types and lint OK"
