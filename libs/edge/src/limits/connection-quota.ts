/**
 * The monthly connection-minute quota at the edge (docs/quotas.md). Every authenticated socket
 * (channel, inbox, `/v1/connect`, event stream) counts from its admission to its close: this
 * gateway adds up each environment's socket time in memory and flushes the whole seconds every
 * QUOTA_FLUSH_MS into `quota_usage` (one statement for every environment; what a failed flush
 * held is kept for the next). A new socket of an environment whose month's minutes reached
 * `limits.monthlyConnectionMinutes` is refused with `quota_exceeded` (4429, or 429 for an event
 * stream, which answers before its body starts); open sockets are not closed. The limit and the
 * month's count are cached per environment for QUOTA_FLUSH_MS (a socket costs no query), each
 * flush refreshes the count of what it wrote, and this gateway's unflushed seconds are added.
 */
import type { Pool } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { readQuotaState } from '@rtm/limits';
import { PERIOD_START_SQL, quotaLimitSql, quotaPeriod } from '@rtm/rules';
import type { Logger } from '@rtm/ops';
import type { QuotaThresholds } from '@rtm/webhooks';

interface Meter {
  /** Sockets open now. */
  open: number;
  /** Socket time counted and not flushed yet, in ms. */
  ms: number;
  /** When `ms` was last brought up to date. */
  since: number;
}

interface Known {
  limit: number | null;
  /** Connection seconds of the month in `quota_usage` when read or last flushed. */
  seconds: number;
  resetsAt: string;
  expires: number;
}

const FLUSH_SQL = `with added as (
         insert into quota_usage as q (environment_id, period_start, connection_seconds)
         select v.environment_id, ${PERIOD_START_SQL}, v.seconds from unnest($1::text[], $2::bigint[]) as v(environment_id, seconds)
         on conflict (environment_id, period_start) do update set connection_seconds = q.connection_seconds + excluded.connection_seconds
         returning q.environment_id, q.connection_seconds)
       select a.environment_id, a.connection_seconds::text as seconds, ${quotaLimitSql('d.config', 'monthlyConnectionMinutes')}::text as lim
       from added a
       join environments e on e.id = a.environment_id
       left join config_deployments d on d.id = e.active_deployment_id`;

/** The close reason of a refusal (at most 123 bytes): the code first, so a client can tell it from a rate limit. */
export const connectionQuotaReason = (used: number, limit: number, resetsAt: string): string =>
  `quota_exceeded: monthlyConnectionMinutes ${used} of ${limit} used; resets ${resetsAt}`;

export class ConnectionQuota {
  readonly #pool: Pool;
  readonly #flushMs: number;
  readonly #log: Logger;
  readonly #thresholds: QuotaThresholds;
  readonly #meters = new Map<string, Meter>();
  readonly #known = new Map<string, Known>();
  readonly #reading = new Map<string, Promise<Known>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> | undefined;

  constructor(options: { pool: Pool; flushMs: number; log: Logger; thresholds: QuotaThresholds }) {
    this.#pool = options.pool;
    this.#flushMs = options.flushMs;
    this.#log = options.log;
    this.#thresholds = options.thresholds;
  }

  /** Refuses (throws `quota_exceeded`) a new socket of an environment whose minutes are spent. */
  async admit(environmentId: string): Promise<void> {
    const known = await this.#knownOf(environmentId);
    if (known.limit === null) return;
    const used = Math.floor((known.seconds + this.#unflushedMs(environmentId) / 1000) / 60);
    if (used < known.limit) return;
    throw new ServiceError('quota_exceeded', connectionQuotaReason(used, known.limit, known.resetsAt), {
      quota: { quota: 'monthlyConnectionMinutes', limit: known.limit, used, resetsAt: known.resetsAt },
    });
  }

  opened(environmentId: string): void {
    const meter = this.#meter(environmentId);
    meter.open++;
  }

  closed(environmentId: string): void {
    const meter = this.#meter(environmentId);
    meter.open = Math.max(0, meter.open - 1);
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.#flushMs);
    this.#timer.unref();
  }

  /** Stops the timer and flushes what is left (a stopping gateway loses at most a second per environment). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Writes every environment's whole seconds in one statement; one flush at a time. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flush().finally(() => (this.#flushing = undefined));
    return this.#flushing;
  }

  async #flush(): Promise<void> {
    const now = Date.now();
    const taken = new Map<string, number>();
    for (const [environmentId, meter] of this.#meters) {
      this.#bring(meter, now);
      const seconds = Math.floor(meter.ms / 1000);
      if (seconds > 0) {
        taken.set(environmentId, seconds);
        meter.ms -= seconds * 1000;
      }
      if (meter.open === 0 && meter.ms < 1000 && seconds === 0) this.#meters.delete(environmentId);
    }
    if (taken.size === 0) return;
    try {
      const { rows } = await this.#pool.query<{ environment_id: string; seconds: string; lim: string | null }>(FLUSH_SQL, [
        [...taken.keys()],
        [...taken.values()],
      ]);
      const resetsAt = quotaPeriod().resetsAt.toISOString();
      for (const row of rows) {
        const limit = row.lim === null ? null : Number(row.lim);
        const seconds = Number(row.seconds);
        this.#known.set(row.environment_id, { limit, seconds, resetsAt, expires: Date.now() + this.#flushMs });
        if (limit !== null)
          this.#thresholds.counted({ environmentId: row.environment_id, quota: 'monthlyConnectionMinutes', used: Math.floor(seconds / 60), limit });
      }
    } catch (error) {
      // kept for the next flush
      for (const [environmentId, seconds] of taken) this.#meter(environmentId).ms += seconds * 1000;
      this.#log.warn({ err: error, environments: taken.size }, 'could not flush connection seconds; the next flush carries them');
    }
  }

  #meter(environmentId: string): Meter {
    const now = Date.now();
    let meter = this.#meters.get(environmentId);
    if (!meter) this.#meters.set(environmentId, (meter = { open: 0, ms: 0, since: now }));
    this.#bring(meter, now);
    return meter;
  }

  #bring(meter: Meter, now: number): void {
    meter.ms += meter.open * (now - meter.since);
    meter.since = now;
  }

  #unflushedMs(environmentId: string): number {
    const meter = this.#meters.get(environmentId);
    return meter ? meter.ms + meter.open * (Date.now() - meter.since) : 0;
  }

  /** The environment's limit and count: cached for QUOTA_FLUSH_MS, one read at a time per environment. */
  #knownOf(environmentId: string): Known | Promise<Known> {
    const hit = this.#known.get(environmentId);
    if (hit && hit.expires > Date.now()) return hit;
    let reading = this.#reading.get(environmentId);
    if (!reading) {
      reading = readQuotaState(this.#pool, environmentId)
        .then((state): Known => {
          const known = {
            limit: state?.quotas.connectionMinutes.limit ?? null,
            seconds: state?.connectionSeconds ?? 0,
            resetsAt: state?.period.resetsAt ?? quotaPeriod().resetsAt.toISOString(),
            expires: Date.now() + this.#flushMs,
          };
          if (this.#known.size > 50_000) this.#known.clear();
          this.#known.set(environmentId, known);
          return known;
        })
        .finally(() => this.#reading.delete(environmentId));
      this.#reading.set(environmentId, reading);
    }
    return reading;
  }
}
