import { Gauge, type Registry } from 'prom-client';
import { gaugeSpec } from '@rtm/ops';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

/**
 * `webhook_backlog_oldest_seconds`: how long the oldest delivery that is due has been waiting
 * (pending, its next attempt time passed; for a delivery of the log without an outcome, since it
 * was committed), 0 when none is. Read from Postgres at each scrape (the partial index on pending
 * deliveries' next attempt, and each partition's log from its stored position on); every
 * dispatcher reports the cluster's value. A scrape while Postgres does not answer keeps the last
 * value.
 */
export function backlogGauge(pool: Pool, registry: Registry, log: Logger): Gauge {
  return new Gauge({
    ...gaugeSpec('webhook_backlog_oldest_seconds'),
    registers: [registry],
    async collect() {
      try {
        const { rows } = await pool.query<{ age: number }>(
          `select coalesce(extract(epoch from now() - least(
             (select min(next_attempt_at) from webhook_deliveries where status = 'pending' and next_attempt_at <= now()),
             (select min(f.created_at) from webhook_positions p
              cross join lateral (
                select l.created_at from webhook_log l
                where l.partition = p.partition and l.tx >= p.tx
                  and not exists (select 1 from webhook_outcomes o where o.delivery_id = l.id and o.created_at = l.created_at)
                  and not exists (select 1 from webhook_deliveries d where d.id = l.id)
                order by l.tx limit 1) f))), 0)::float8 as age`,
        );
        this.set(Math.max(0, rows[0]!.age));
      } catch (error) {
        log.debug({ err: error }, 'could not read the webhook backlog');
      }
    },
  });
}
