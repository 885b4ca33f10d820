import type { Task } from 'graphile-worker';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { resolveNamespace, type Namespace } from '@rtm/rules';

/** Rows examined (and at most deleted) per statement: each statement is its own short transaction. */
export const PRUNE_MESSAGES_BATCH = 1000;
export const PRUNE_MESSAGES_TASK = 'prune_messages';

const DAY_MS = 86_400_000;

/**
 * `prune_messages` (cron every 15 minutes, and once at start; one job key and one named queue, so
 * graphile-worker runs one at a time across every dispatcher): deletes the messages older than the `retentionDays`
 * of their channel's namespace (docs/permissions.md). Per channel, from its oldest message,
 * 1000 rows by primary key (`channel_pk, seq`) per statement, each its own transaction, so no
 * lock is held for long and publishes go on; a channel stops at its first message inside the
 * retention window (timestamps grow with seq). `channels.last_seq` is never touched, so seqs are
 * never reused. Webhook deliveries, notifications and idempotency keys do not reference message
 * rows (no foreign key), so they are unaffected.
 */
export const pruneMessages =
  (pool: Pool, log: Logger): Task =>
  async () => {
    const { rows: environments } = await pool.query<{ environment_id: string; namespaces: Namespace[] }>(
      `select e.id as environment_id, d.config -> 'namespaces' as namespaces
       from environments e join config_deployments d on d.id = e.active_deployment_id
       where jsonb_typeof(d.config -> 'namespaces') = 'array'
         and exists (select 1 from jsonb_array_elements(d.config -> 'namespaces') n where n ? 'retentionDays')`,
    );
    let total = 0;
    for (const { environment_id: environmentId, namespaces } of environments) {
      const prefixes = namespaces.filter((namespace) => namespace.retentionDays !== undefined).map((namespace) => namespace.prefix);
      const { rows: channels } = await pool.query<{ pk: string; id: string }>(
        `select pk, id from channels c
         where c.environment_id = $1 and exists (select 1 from unnest($2::text[]) p where starts_with(c.id, p))`,
        [environmentId, prefixes],
      );
      for (const channel of channels) {
        // the longest prefix decides: a channel of a longer namespace without retention is kept
        const { retentionDays } = resolveNamespace(namespaces, channel.id);
        if (retentionDays === null) continue;
        total += await pruneChannel(pool, channel.pk, Date.now() - retentionDays * DAY_MS);
      }
    }
    if (total > 0) log.info({ deleted: total }, 'pruned messages past their namespace retention');
  };

async function pruneChannel(pool: Pool, channelPk: string, cutoffMs: number): Promise<number> {
  let after = -1;
  let deleted = 0;
  for (;;) {
    const { rows } = await pool.query<{ deleted: number; scanned: number; last: string | null }>(
      `with batch as (
         select seq, ts from messages where channel_pk = $1 and seq > $2 order by seq limit $4
       ), gone as (
         delete from messages m using batch b where m.channel_pk = $1 and m.seq = b.seq and b.ts < $3 returning m.seq
       )
       select (select count(*) from gone)::int as deleted, (select count(*) from batch)::int as scanned,
              (select max(seq) from batch)::text as last`,
      [channelPk, after, cutoffMs, PRUNE_MESSAGES_BATCH],
    );
    const row = rows[0]!;
    deleted += row.deleted;
    // a batch that kept a row reached the retention window; a short batch reached the end
    if (row.deleted < row.scanned || row.scanned < PRUNE_MESSAGES_BATCH || row.last === null) return deleted;
    after = Number(row.last);
  }
}
