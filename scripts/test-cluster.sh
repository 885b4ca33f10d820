#!/usr/bin/env bash
# `npm run test:cluster`: the production shape as real processes on this machine (a private
# Postgres, 3 clustered nats-server processes, HAProxy, 2 gateways, 3 channel-nodes, 2 dispatchers)
# under load, through a rolling restart, a NATS server killed, Postgres restarted and channel-nodes
# scaled (test/cluster/, docs/cluster-test.md); replicated Postgres losing its primary; the
# service failing over under load with pg_auto_failover, and processes on a standby or a read-only
# primary. The same set-up as `npm test`, plus HAProxy and pg_auto_failover.
# It uses only its own instances on free ports, never DATABASE_URL's or NATS_URL's.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
setup_node
setup_all
setup_haproxy
setup_auto_failover
echo "== cluster test"
exec node --import tsx --test --test-concurrency=1 --test-timeout=480000 $(find test/cluster -name '*.cluster.ts' | sort)
