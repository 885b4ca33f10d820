import { Gauge, type Registry } from 'prom-client';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

/**
 * `webhook_backlog_oldest_seconds`: how long the oldest delivery that is due has been waiting
 * (pending, its next attempt time passed), 0 when none is. Read from Postgres at each scrape
 * (the partial index on pending deliveries' next attempt answers it); every dispatcher reports
 * the cluster's value. A scrape while Postgres does not answer keeps the last value.
 */
export function backlogGauge(pool: Pool, registry: Registry, log: Logger): Gauge {
  return new Gauge({
    name: 'webhook_backlog_oldest_seconds',
    help: 'Age of the oldest due, undelivered webhook delivery (seconds past its next attempt time; 0: none waiting)',
    registers: [registry],
    async collect() {
      try {
        const { rows } = await pool.query<{ age: number }>(
          `select coalesce(extract(epoch from now() - min(next_attempt_at)), 0)::float8 as age
           from webhook_deliveries where status = 'pending' and next_attempt_at <= now()`,
        );
        this.set(Math.max(0, rows[0]!.age));
      } catch (error) {
        log.debug({ err: error }, 'could not read the webhook backlog');
      }
    },
  });
}
