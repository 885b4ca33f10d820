/**
 * Deletes notifications older than NOTIFICATION_RETENTION, and the per-recipient counts of past
 * minutes (notification_windows), every NOTIFICATION_SWEEP_MS, on
 * whichever gateway takes the advisory lock first; reads filter by age too, so a late sweep never
 * shows an expired notification. Started and stopped by services.ts.
 */
import { ADVISORY_LOCKS, SWEEP_NOTIFICATION_WINDOWS_SQL } from '@rtm/db';
import type { GatewayDeps } from '../deps.ts';

const BATCH = 5_000;

export class NotificationSweeper {
  readonly #deps: GatewayDeps;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
  }

  start(): void {
    this.#timer ??= setInterval(() => {
      if (this.#running) return;
      this.#running = this.sweep()
        .catch((error: unknown) => this.#deps.log.warn({ err: error }, 'notification sweep failed'))
        .finally(() => (this.#running = undefined));
    }, this.#deps.config.NOTIFICATION_SWEEP_MS);
    this.#timer.unref();
  }

  /** Stops the timer and waits for a sweep under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One sweep, if this gateway gets the lock. */
  async sweep(): Promise<void> {
    const { pool, config } = this.#deps;
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [ADVISORY_LOCKS.notificationSweep]);
      if (!rows[0]?.locked) return;
      try {
        for (;;) {
          const { rowCount } = await client.query(
            `delete from notifications where id in (
               select id from notifications where created_at < now() - $1::bigint * interval '1 millisecond' limit ${BATCH})`,
            [config.NOTIFICATION_RETENTION],
          );
          if ((rowCount ?? 0) < BATCH) break;
        }
        // the per-recipient counts of past minutes (one row per recently notified user)
        await client.query(SWEEP_NOTIFICATION_WINDOWS_SQL);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [ADVISORY_LOCKS.notificationSweep]);
      }
    } finally {
      client.release();
    }
  }
}
