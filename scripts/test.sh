#!/usr/bin/env bash
# `npm test`: the same set-up as `npm start` (Node 24, dependencies, Postgres, NATS) plus Chromium
# for the browser tests, then the typecheck and the whole suite against real processes, all on
# Node 24 (RTM_NODE=22 for Node 22, RTM_NODE=system for the machine's own node).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
setup_node
setup_all
setup_chromium
setup_go
setup_python_sdk
echo "== node $(node -v)"
echo "== format and lint (Biome: biome.jsonc; 'npm run format' writes the formatting)"
npm run --silent lint
echo "== unit tests (no processes, one process for all)"
node --import tsx test/unit/all.ts
echo "== typecheck"
npx tsc -p tsconfig.json
npx tsc -p apps/dashboard/tsconfig.json
echo "== generated documents (OpenAPI, AsyncAPI, server SDK types, Go SDK types, Python SDK models)"
npx tsx scripts/write-openapi.ts --check
npx tsx scripts/write-asyncapi.ts --check
npx tsx libs/server-sdk/scripts/generate.ts --check
npx tsx scripts/generate-go-sdk.ts --check
npx tsx scripts/generate-python-sdk.ts --check
echo "== tests against real processes"
# test files run in parallel (each on its own database and NATS prefix); 2 cores: keep it modest
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" --test-timeout=240000 \
  $(find test -name '*.test.ts' -not -path 'test/unit/*' | sort)
