#!/usr/bin/env bash
# The Compose standby's entrypoint (deploy/compose.yaml, service postgres-standby). When its data
# directory is empty, copy the primary with pg_basebackup: -R writes standby.signal and
# primary_conninfo (so postgres starts as a standby streaming from the primary), -S streams
# through the slot the primary made for it. The copy goes to a sibling directory and is renamed
# only once complete, so a copy cut short is redone, never started. Then the official image's
# entrypoint starts postgres with the service's command (a hot standby: it answers reads and
# refuses writes). It reads PRIMARY_HOST, REPLICATION_USER, REPLICATION_SLOT and PGPASSWORD.
set -Eeuo pipefail

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  copy="$PGDATA.copy"
  until
    rm -rf "$copy"
    pg_basebackup --host="$PRIMARY_HOST" --port=5432 --username="$REPLICATION_USER" --no-password \
      --pgdata="$copy" --write-recovery-conf --slot="$REPLICATION_SLOT" --wal-method=stream --checkpoint=fast
  do
    echo "standby: pg_basebackup from $PRIMARY_HOST failed, retrying in 2 s" >&2
    sleep 2
  done
  rm -rf "$PGDATA"
  mv "$copy" "$PGDATA"
fi

exec docker-entrypoint.sh "$@"
