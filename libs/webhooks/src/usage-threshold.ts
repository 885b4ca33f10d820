/**
 * `usage.threshold` events (docs/quotas.md): when a monthly quota's count reaches 80 % or 100 % of
 * its limit, one event per environment, quota, threshold and month. The process that counted
 * (the channel-node after a commit, the gateway after a connection-seconds flush) records it: a
 * `quota_thresholds` row (its key is the "once") and the event's deliveries in one transaction,
 * so the event exists exactly when the row does. A process that stops between its count and the
 * record leaves it to the next count of that environment, on any process.
 */
import { newId, withTransaction, type Pool } from '@rtm/db';
import { PERIOD_START_SQL, quotaPeriod, thresholdsReached, type QuotaName, type QuotaThreshold } from '@rtm/rules';
import type { Logger } from '@rtm/ops';
import { recordWebhookEvents, type WebhookEventInput } from './enqueue.ts';

/** One count of a limited quota: what `environmentId` used of `limit` this month. */
export interface QuotaCount {
  environmentId: string;
  quota: QuotaName;
  used: number;
  limit: number;
}

const RECORD_SQL = `insert into quota_thresholds (environment_id, period_start, quota, threshold)
       select $1, ${PERIOD_START_SQL}, $2, t from unnest($3::int[]) as t
       on conflict do nothing
       returning threshold, period_start::text as period_start`;

/**
 * Records the thresholds `count` reached that were not recorded this month, each with its event;
 * returns those recorded now (none when another process was first).
 */
export async function recordThresholds(pool: Pool, count: QuotaCount, thresholds: readonly QuotaThreshold[]): Promise<QuotaThreshold[]> {
  if (thresholds.length === 0) return [];
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ threshold: QuotaThreshold; period_start: string }>(RECORD_SQL, [count.environmentId, count.quota, thresholds]);
    const timestamp = Date.now();
    const events: WebhookEventInput[] = rows.map((row) => {
      const period = quotaPeriod(Date.parse(`${row.period_start}T00:00:00Z`));
      const data = {
        quota: count.quota,
        threshold: row.threshold,
        limit: count.limit,
        used: count.used,
        period: { start: period.start.toISOString(), resetsAt: period.resetsAt.toISOString() },
      };
      return { environmentId: count.environmentId, channelId: null, eventId: newId('evt'), type: 'usage.threshold', timestamp, data: JSON.stringify(data) };
    });
    await recordWebhookEvents(client, events);
    return rows.map((row) => row.threshold);
  });
}

/**
 * A process's side of the threshold events: told every count of a limited quota, it records the
 * thresholds reached that it does not know to be recorded this month (one transaction, rarely:
 * twice a month per environment and quota, plus once per process that learns it was done).
 */
export class QuotaThresholds {
  readonly #pool: Pool;
  readonly #log: Logger;
  /** `environment, quota, month, threshold` known recorded (by this process or another). */
  readonly #recorded = new Set<string>();
  readonly #recording = new Set<string>();

  constructor(pool: Pool, log: Logger) {
    this.#pool = pool;
    this.#log = log;
  }

  /** Never throws and never waits: a failed record is tried again at the environment's next count. */
  counted(count: QuotaCount): void {
    const month = quotaPeriod().start.toISOString().slice(0, 7);
    const keyOf = (t: QuotaThreshold) => `${count.environmentId}\u0000${count.quota}\u0000${month}\u0000${t}`;
    const due = thresholdsReached(count.used, count.limit).filter((t) => !this.#recorded.has(keyOf(t)) && !this.#recording.has(keyOf(t)));
    if (due.length === 0) return;
    for (const t of due) this.#recording.add(keyOf(t));
    recordThresholds(this.#pool, count, due)
      .then(
        (recorded) => {
          if (this.#recorded.size > 100_000) this.#recorded.clear();
          for (const t of due) this.#recorded.add(keyOf(t));
          if (recorded.length > 0) this.#log.info({ ...count, thresholds: recorded }, 'usage.threshold recorded');
        },
        (error: unknown) =>
          this.#log.warn(
            { err: error, environmentId: count.environmentId, quota: count.quota },
            'could not record usage.threshold; the next count tries again',
          ),
      )
      .finally(() => {
        for (const t of due) this.#recording.delete(keyOf(t));
      });
  }
}
