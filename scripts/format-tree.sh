#!/usr/bin/env bash
# Formats the whole tree with Biome (biome.jsonc) and checks that nothing but the layout changed:
# the formatter, then the linter with no findings, the typecheck, the unit tests and the generated
# documents' checks. Run it on a clean work tree; it leaves the changes for one commit of their own:
#   bash scripts/format-tree.sh && git commit -qam 'Format the whole tree with Biome'
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "$(git status --porcelain)" ]; then
  echo "format-tree: the work tree has changes; commit or set them aside first" >&2
  exit 1
fi
echo "== format (biome format --write)"
npx biome format --write .
git diff --shortstat
echo "== format and lint, no writes (npm run lint)"
npm run --silent lint
echo "== typecheck"
npx tsc -p tsconfig.json
npx tsc -p apps/dashboard/tsconfig.json
echo "== unit tests"
node --import tsx test/unit/all.ts
echo "== generated documents"
npx tsx scripts/write-openapi.ts --check
npx tsx scripts/write-asyncapi.ts --check
npx tsx libs/server-sdk/scripts/generate.ts --check
npx tsx scripts/generate-go-sdk.ts --check
npx tsx scripts/generate-python-sdk.ts --check
echo "format-tree: formatted and checked; commit the changes on their own"
