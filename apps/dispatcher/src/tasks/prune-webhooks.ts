import type { Task } from 'graphile-worker';
import { withTransaction, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

const BATCH = 5_000;

/** Serialises the partition upkeep of concurrent runs (two dispatchers started at once). */
const PARTITIONS_LOCK = 7_351_019;

/**
 * How long a drop waits for the parent tables' lock (a dropped partition locks its parent
 * exclusively: writes to the log queue behind the wait). A drop that cannot have it in time is
 * left to the next run.
 */
const DROP_LOCK_TIMEOUT = '1s';

/** The daily partitions of `webhook_log` (and their day) whose day ended more than `$1` ms ago. */
const EXPIRED_SQL = `select c.relname::text as name, substr(c.relname, 13) as day
  from pg_inherits i join pg_class c on c.oid = i.inhrelid
  where i.inhparent = 'webhook_log'::regclass and c.relname ~ '^webhook_log_[0-9]{8}$'
    and (to_date(substr(c.relname, 13), 'YYYYMMDD') + 1)::timestamp at time zone 'UTC' < now() - $1 * interval '1 millisecond'
  order by c.relname`;

/**
 * Whether a row of the log (alias `l`) still needs its partition: one with neither an outcome
 * (in `outcomes`, the same day's partition of `webhook_outcomes`) nor a ledger row (its id in
 * `webhook_deliveries`) was never attempted, or its outcome is not durable yet.
 */
const undone = (outcomes: string) => `not exists (select 1 from ${outcomes} o where o.delivery_id = l.id and o.created_at = l.created_at)
      and not exists (select 1 from webhook_deliveries d where d.id = l.id)`;

/**
 * Whether a row of the log (alias `l`, with `p.tx` the lowest position in `webhook_positions`)
 * keeps its partition: it must lie below every webhook partition's position (each owner has read
 * past it, and a position advances only past durable outcomes), and one whose webhook partition
 * has no position yet must have a durable outcome. With no position at all (no owner has kept
 * one), only the outcome or ledger row counts.
 */
const keeps = (outcomes: string) => `case when p.tx is null then ${undone(outcomes)}
    else l.tx >= p.tx or (not exists (select 1 from webhook_positions w where w.partition = l.partition) and ${undone(outcomes)}) end`;

/** Whether the log partition `log` (its outcomes in `outcomes`) can go: no row keeps it. */
export const droppableSql = (log: string, outcomes: string) => `select not exists (
    select 1 from ${log} l, (select min(tx) as tx from webhook_positions) p where ${keeps(outcomes)}) as droppable`;

/**
 * The delivery log's retention (docs/operations.md, "Webhook delivery log"): makes the daily
 * partitions of `webhook_log` and `webhook_outcomes` a week ahead, then drops each day's pair
 * whose day ended more than `retentionMs` ago and whose rows are all done with (`droppableSql`);
 * one still needed is kept and looked at again the next run. Rows that fell in the default
 * partitions (days without a partition) go the same way, by delete. Returns the days dropped and
 * the expired days kept.
 */
export async function pruneWebhookLog(pool: Pool, retentionMs: number): Promise<{ dropped: string[]; kept: string[] }> {
  await withTransaction(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock($1)', [PARTITIONS_LOCK]);
    await client.query(`select webhook_log_partitions((now() at time zone 'UTC')::date, 8)`);
  });
  const dropped: string[] = [];
  const kept: string[] = [];
  const { rows } = await pool.query<{ name: string; day: string }>(EXPIRED_SQL, [retentionMs]);
  for (const { name, day } of rows) {
    const outcomes = `webhook_outcomes_${day}`;
    try {
      const gone = await withTransaction(pool, async (client) => {
        await client.query('select pg_advisory_xact_lock($1)', [PARTITIONS_LOCK]);
        const exists = await client.query<{ log: string | null; outcomes: string | null }>(
          'select to_regclass($1)::text as log, to_regclass($2)::text as outcomes',
          [name, outcomes],
        );
        if (exists.rows[0]!.log === null) return false;
        const check = await client.query<{ droppable: boolean }>(droppableSql(name, exists.rows[0]!.outcomes ?? 'webhook_outcomes'));
        if (!check.rows[0]!.droppable) return false;
        await client.query(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
        // the log's first, then its outcomes' (the order the ledger's reads lock them in)
        await client.query(`drop table ${name}`);
        await client.query(`drop table if exists ${outcomes}`);
        return true;
      });
      (gone ? dropped : kept).push(day);
    } catch (error) {
      // 55P03: the parent's lock was not had in time; the next run tries again
      if ((error as { code?: string }).code !== '55P03') throw error;
      kept.push(day);
    }
  }
  // rows in the default partitions: deleted on the same terms
  await withTransaction(pool, async (client) => {
    await client.query(
      `delete from webhook_log_default l using (select min(tx) as tx from webhook_positions) p
       where l.created_at < now() - $1 * interval '1 millisecond' and not (${keeps('webhook_outcomes')})`,
      [retentionMs],
    );
    await client.query(
      `delete from webhook_outcomes_default o
       where o.created_at < now() - $1 * interval '1 millisecond'
         and not exists (select 1 from webhook_log l where l.id = o.delivery_id and l.created_at = o.created_at)`,
      [retentionMs],
    );
  });
  return { dropped, kept };
}

/**
 * `prune_webhooks` (cron, and once at start): deletes `delivered`, `dropped` and `cancelled` deliveries (and,
 * by cascade, their attempts) last updated more than WEBHOOK_RETENTION ago, in batches so no
 * transaction grows large. Pending deliveries are never pruned. Then the delivery log's upkeep
 * (`pruneWebhookLog`): partitions made a week ahead, expired days dropped whole.
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
    const { dropped, kept } = await pruneWebhookLog(pool, retentionMs);
    if (dropped.length > 0) log.info({ days: dropped }, 'dropped webhook log partitions');
    if (kept.length > 0) log.warn({ days: kept }, 'kept expired webhook log partitions: deliveries not done with yet');
  };
