#!/usr/bin/env bash
# `npm start`: Node 24, dependencies, Postgres, NATS and migrations (scripts/setup.sh), then one gateway,
# one channel-node and one dispatcher under the supervisor (scripts/start.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
setup_node
setup_all
exec node --import tsx scripts/start.ts "$@"
