/**
 * How far the read pool's server (DATABASE_READ_URL) is behind its primary, read from it at each
 * scrape: `postgres_replica_lag_seconds` (lagSeconds: 0 while a streaming standby has replayed
 * everything it received, so an idle primary is no lag) and `postgres_replica_lag_bytes` (WAL
 * received and not yet replayed). Registered by every gateway, so the metrics are listed without
 * a read pool too; only a gateway with one has samples. A scrape the server does not answer keeps
 * the last values (and reads go to the primary meanwhile).
 */
import { Gauge, type Registry } from 'prom-client';
import { gaugeSpec } from '@rtm/ops';
import { lagSeconds, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

const REPLAY_STATE_SQL = `select pg_is_in_recovery() as standby,
       coalesce((select status = 'streaming' from pg_stat_wal_receiver), false) as streaming,
       coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)::float8 as unreplayed_bytes,
       extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since_replay`;

export function replicaLagGauges(readPool: Pool | undefined, registry: Registry, log: Logger): void {
  const pool = 'replica';
  let reading: Promise<{ seconds: number; bytes: number } | undefined> | undefined;
  // one query serves both gauges of a scrape
  const read = () =>
    (reading ??= (async () => {
      try {
        const { rows } = await readPool!.query<{ standby: boolean; streaming: boolean; unreplayed_bytes: number; since_replay: number | null }>(
          REPLAY_STATE_SQL,
        );
        const row = rows[0]!;
        return {
          seconds: lagSeconds({ standby: row.standby, streaming: row.streaming, unreplayedBytes: row.unreplayed_bytes, sinceReplay: row.since_replay }),
          bytes: row.standby ? Math.max(0, row.unreplayed_bytes) : 0,
        };
      } catch (error) {
        log.debug({ err: error }, 'could not read the replica lag');
        return undefined;
      } finally {
        setImmediate(() => (reading = undefined));
      }
    })());
  new Gauge({
    ...gaugeSpec('postgres_replica_lag_seconds'),
    registers: [registry],
    async collect() {
      if (!readPool) return;
      const lag = await read();
      if (lag) this.set({ pool }, lag.seconds);
    },
  });
  new Gauge({
    ...gaugeSpec('postgres_replica_lag_bytes'),
    registers: [registry],
    async collect() {
      if (!readPool) return;
      const lag = await read();
      if (lag) this.set({ pool }, lag.bytes);
    },
  });
}
