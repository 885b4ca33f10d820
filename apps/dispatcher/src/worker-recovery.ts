/**
 * Crash recovery. graphile-worker 0.17 leaves the jobs of a worker pool that died (kill -9,
 * lost machine) locked for 4 hours. Here:
 *
 * 1. Liveness: each dispatcher holds a session advisory lock (class LIVENESS_CLASS, key
 *    hashtext(<its worker pool id>)) on a connection of its own. Postgres drops it the moment
 *    that connection dies, so "no such lock" means "that pool is gone".
 * 2. Reaper: every WORKER_RECOVERY_INTERVAL each live dispatcher looks for jobs locked (for more
 *    than a few seconds, so a pool that is still taking its lock is not mistaken for dead) by a
 *    pool whose liveness lock is not held, and calls graphile_worker.force_unlock_workers for
 *    them. Their jobs run again at once; the delivery lease (`locked_until`) keeps a delivery
 *    that was mid-send from being sent again before its lease ends.
 * 3. Reconciler: every 10 s, a pending delivery whose lease lapsed without a record (its claimer
 *    died mid-send: sends that outlive their job's first 100 ms finish without a job behind
 *    them), or that is overdue by WEBHOOK_STALE_AFTER and not leased, gets a fresh
 *    `deliver_webhook` job (job key per delivery, so repeats collapse). A record clears the
 *    lease, so a lapsed one means nobody will record that claim. The overdue rule is the
 *    backstop for any job that went missing.
 *    First attempts have no job (push-intake.ts): a lost notice is found by the partition's
 *    owner (its catch-up pass), and a delivery held back by its endpoint waits in the owner's
 *    memory; so the overdue rule gives jobs only to rows of webhook partitions nobody owns.
 */
import { ADVISORY_LOCKS, type Pool, type PoolClient } from '@rtm/db';
import { deliverOneJobSql } from '@rtm/webhooks';
import { webhookPartitionOf } from '@rtm/bus';
import type { Logger } from '@rtm/ops';

const LIVENESS_CLASS = ADVISORY_LOCKS.dispatcherLiveness;
const MIN_LOCK_AGE = '5 seconds';
const RECONCILE_EVERY_MS = 10_000;

export class WorkerRecovery {
  readonly #pool: Pool;
  readonly #log: Logger;
  readonly #intervalMs: number;
  readonly #staleMs: number;
  #client: PoolClient | undefined;
  /** The liveness connection being opened: callers at the same moment share it. */
  #connecting: Promise<PoolClient> | undefined;
  #poolIds = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #lastReconcile = 0;
  #stopped = false;

  constructor(options: { pool: Pool; log: Logger; intervalMs: number; staleMs: number }) {
    this.#pool = options.pool;
    this.#log = options.log;
    this.#intervalMs = options.intervalMs;
    this.#staleMs = options.staleMs;
  }

  /** Holds the liveness lock of a worker pool for as long as this process lives. */
  async holdLiveness(poolId: string): Promise<void> {
    this.#poolIds.add(poolId);
    const client = await this.#livenessClient();
    if (this.#stopped) return; // stopped meanwhile: the connection was released, it holds nothing
    await client.query('select pg_advisory_lock($1, hashtext($2))', [LIVENESS_CLASS, poolId]);
  }

  /**
   * Lets go of the liveness locks of worker pools that stopped while this process lives on, so
   * that the recovery pass (this dispatcher's included) unlocks the jobs they still held.
   */
  async releaseLiveness(poolIds: string[]): Promise<void> {
    for (const id of poolIds) this.#poolIds.delete(id);
    const client = this.#client;
    if (!client) return;
    for (const id of poolIds) await client.query('select pg_advisory_unlock($1, hashtext($2))', [LIVENESS_CLASS, id]);
  }

  /**
   * The one liveness connection. Worker pools are created together and each asks for it at once:
   * they share one connect, since a second connection would never be released and `pool.end()`
   * would wait for it forever at shutdown.
   */
  async #livenessClient(): Promise<PoolClient> {
    if (this.#client) return this.#client;
    this.#connecting ??= this.#pool
      .connect()
      .then((client) => {
        this.#client = client;
        client.on('error', (error) => {
          // the connection (and with it our locks) is gone: take them again on a new one
          this.#log.warn({ err: error }, 'liveness connection lost');
          client.release(true);
          if (this.#client === client) this.#client = undefined;
          if (!this.#stopped) void this.#relock();
        });
        return client;
      })
      .finally(() => {
        this.#connecting = undefined;
      });
    return this.#connecting;
  }

  async #relock(): Promise<void> {
    for (let attempt = 0; !this.#stopped; attempt++) {
      try {
        for (const id of this.#poolIds) await this.holdLiveness(id);
        return;
      } catch (error) {
        this.#log.warn({ err: error }, 'could not retake liveness locks');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
  }

  start(): void {
    this.#timer = setInterval(() => void this.tick(), this.#intervalMs);
    this.#timer.unref();
  }

  /** One pass: unlock dead pools' jobs, and now and then re-enqueue overdue deliveries. */
  async tick(): Promise<void> {
    if (this.#running || this.#stopped) return;
    this.#running = true;
    try {
      const dead = await this.#pool.query<{ locked_by: string }>(
        `select distinct j.locked_by from graphile_worker.jobs j
         where j.locked_by is not null and j.locked_at < now() - interval '${MIN_LOCK_AGE}'
           and not exists (
             select 1 from pg_locks l
             where l.locktype = 'advisory' and l.granted
               and l.database = (select oid from pg_database where datname = current_database())
               and l.classid::bigint = $1 and l.objsubid = 2
               and l.objid::bigint = (hashtext(j.locked_by)::bigint & 4294967295))`,
        [LIVENESS_CLASS],
      );
      const ids = dead.rows.map((row) => row.locked_by).filter((id) => !this.#poolIds.has(id));
      if (ids.length > 0) {
        await this.#pool.query('select graphile_worker.force_unlock_workers($1::text[])', [ids]);
        this.#log.warn({ workers: ids }, 'unlocked the jobs of dead dispatchers');
      }
      if (Date.now() - this.#lastReconcile >= RECONCILE_EVERY_MS) {
        this.#lastReconcile = Date.now();
        const lapsed = await this.#pool.query(
          `select ${deliverOneJobSql('id')}
           from webhook_deliveries
           where status = 'pending' and locked_until < now() - interval '1 second'
           order by next_attempt_at limit 1000`,
        );
        if (lapsed.rowCount) this.#log.warn({ deliveries: lapsed.rowCount }, 're-enqueued webhook deliveries with a lapsed lease');
        const orphans = await this.#orphans();
        if (orphans.length > 0) {
          await this.#pool.query(`select ${deliverOneJobSql('id')} from unnest($1::text[]) as id`, [orphans]);
          this.#log.warn({ deliveries: orphans.length }, 're-enqueued overdue webhook deliveries of unowned partitions');
        }
      }
    } catch (error) {
      this.#log.warn({ err: error }, 'worker recovery pass failed');
    } finally {
      this.#running = false;
    }
  }

  /**
   * Overdue, unleased deliveries (by WEBHOOK_STALE_AFTER) of webhook partitions no dispatcher
   * owns. Those of an owned partition are its owner's: held in its memory (their endpoint at its
   * limit, its circuit open) or found by its catch-up pass (push-intake.ts); a job for them would
   * only be deferred through Postgres again and again.
   */
  async #orphans(): Promise<string[]> {
    const { rows } = await this.#pool.query<{ id: string; environment_id: string }>(
      `select id, environment_id from webhook_deliveries
       where status = 'pending' and locked_until is null and next_attempt_at < now() - $1 * interval '1 millisecond'
       order by next_attempt_at limit 1000`,
      [this.#staleMs],
    );
    if (rows.length === 0) return [];
    const owned = await this.#pool.query<{ partition: string }>(
      `select objid::int8 as partition from pg_locks
       where locktype = 'advisory' and granted and objsubid = 2
         and database = (select oid from pg_database where datname = current_database())
         and classid = $1::int8::oid`,
      [ADVISORY_LOCKS.webhookPartitions],
    );
    const ownedPartitions = new Set(owned.rows.map((row) => Number(row.partition)));
    return rows.filter((row) => !ownedPartitions.has(webhookPartitionOf(row.environment_id))).map((row) => row.id);
  }

  /** Stops the passes and lets go of the liveness locks (after the worker pool has stopped). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    // a connection still being opened is waited for, so it is released too
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    if (client) {
      await client.query('select pg_advisory_unlock_all()').catch(() => {});
      client.release();
    }
  }
}
