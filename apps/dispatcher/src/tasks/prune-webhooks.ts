import type { Task } from 'graphile-worker';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

const BATCH = 5_000;

/**
 * `prune_webhooks` (cron, and once at start): deletes `delivered`, `dropped` and `cancelled` deliveries (and,
 * by cascade, their attempts) last updated more than WEBHOOK_RETENTION ago, in batches so no
 * transaction grows large. Pending deliveries are never pruned.
 */
export const pruneWebhooks =
  (pool: Pool, retentionMs: number, log: Logger): Task =>
  async () => {
    let total = 0;
    for (;;) {
      const { rowCount } = await pool.query(
        // the conditions stand outside too: a row re-queued (retry) while this runs is re-checked
        // against them under read committed, not only against the subquery's snapshot
        `delete from webhook_deliveries
         where id in (
           select id from webhook_deliveries
           where status <> 'pending' and updated_at < now() - $1 * interval '1 millisecond'
           limit $2)
           and status <> 'pending' and updated_at < now() - $1 * interval '1 millisecond'`,
        [retentionMs, BATCH],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) break;
    }
    if (total > 0) log.info({ deleted: total }, 'pruned webhook deliveries');
  };
