#!/usr/bin/env bash
# The Compose primary's replication set-up (deploy/compose.yaml, service postgres). The official
# postgres image runs it from /docker-entrypoint-initdb.d once, when it creates the database; it
# is idempotent, so on a data directory created before it existed run it by hand (then start the
# standby: from the reload on, every commit waits for it):
#   docker compose -f deploy/compose.yaml exec -u postgres postgres bash /docker-entrypoint-initdb.d/10-replication.sh
# It reads REPLICATION_USER, REPLICATION_PASSWORD, REPLICATION_SLOT and SYNCHRONOUS_STANDBY_NAMES
# from the service's environment. The image sources it (no exit, no `set -u` here).

# the standby's role, its slot (the primary keeps the WAL the standby has not received yet, so a
# standby that was down catches up instead of being rebuilt) and, last, synchronous replication:
# synchronous_standby_names goes into postgresql.auto.conf, not onto the command line, so that
# ALTER SYSTEM can clear it in an emergency (compose.yaml) — a command-line setting would win
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  --set=user="$REPLICATION_USER" --set=password="$REPLICATION_PASSWORD" \
  --set=slot="$REPLICATION_SLOT" --set=standby_names="$SYNCHRONOUS_STANDBY_NAMES" <<'SQL'
SELECT format('CREATE ROLE %I WITH REPLICATION LOGIN PASSWORD %L', :'user', :'password')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'user') \gexec
SELECT pg_create_physical_replication_slot(:'slot', true)
  WHERE NOT EXISTS (SELECT FROM pg_replication_slots WHERE slot_name = :'slot');
ALTER SYSTEM SET synchronous_standby_names = :'standby_names';
SQL

# replication connections match no `all` line of pg_hba.conf: the standby's needs its own
hba="host replication $REPLICATION_USER all scram-sha-256"
grep -qxF "$hba" "$PGDATA/pg_hba.conf" || echo "$hba" >> "$PGDATA/pg_hba.conf"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -c 'SELECT pg_reload_conf()' >/dev/null
