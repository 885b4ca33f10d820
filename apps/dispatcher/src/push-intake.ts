/**
 * First attempts, pushed. A channel-node that commits webhook deliveries adds no job for them: it
 * publishes their ids after commit on `subjects.webhookNotices` (a JSON array), and one dispatcher
 * of the queue group takes each notice. The ids wait here, in memory, and are sent at once by
 * the deliverer, a chunk at a time with up to WINDOW chunks in flight (each chunk is one claim
 * statement and one record statement). Only an attempt that fails gets a job (`deliver_webhook`
 * with `run_at` at the next step of the schedule, written by the record).
 *
 * The row is the truth, the notice only a wake-up. A notice that never arrives (no dispatcher
 * subscribed, NATS down, this process killed with ids still queued here, or the queue full) leaves
 * pending, due, unleased rows that nobody claimed: the reconciler (worker-recovery.ts) gives such
 * a never-attempted row a job once it has been due for NOTICE_GRACE_MS, so it is sent at most
 * NOTICE_GRACE_MS + one reconcile period (10 s) + one recovery interval after it was committed.
 * Sending twice is prevented by the claim's lease, as for any job.
 */
import { decodeJson, type NatsConnection, type Subjects, type Subscription } from '@rtm/bus';
import { deliverBatchJobSql } from '@rtm/webhooks';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deliverer } from './deliverer.ts';

/** The queue group: one dispatcher takes each notice. */
export const NOTICE_QUEUE = 'dispatchers';
/** Deliveries per claim (one statement) and per record (one statement). */
const CHUNK = 16;
/** Chunks being sent at once by this dispatcher (their slow sends finish in the background). */
const WINDOW = 8;
/** Ids held in memory at most; a notice beyond is left to the reconciler (counted as overflow). */
const MAX_QUEUED = 50_000;

export class PushIntake {
  readonly #deliverer: Deliverer;
  readonly #pool: Pool;
  readonly #log: Logger;
  readonly #queue: string[] = [];
  #head = 0;
  #running = 0;
  #subscription: Subscription | undefined;
  #stopped = false;
  readonly #idle = new Set<() => void>();
  readonly #notices: Counter<'result'>;

  constructor(deps: { deliverer: Deliverer; pool: Pool; log: Logger; metrics: Registry }) {
    this.#deliverer = deps.deliverer;
    this.#pool = deps.pool;
    this.#log = deps.log;
    this.#notices = new Counter({
      name: 'webhook_notices_total',
      help: 'Post-commit delivery notices taken by this dispatcher: queued (sent from memory) or overflow (left to the reconciler)',
      labelNames: ['result'],
      registers: [deps.metrics],
    });
    const intake = this;
    new Gauge({
      name: 'webhook_push_queued',
      help: 'Deliveries taken from notices and waiting in this dispatcher\'s memory for a place in the send window',
      registers: [deps.metrics],
      collect() {
        this.set(intake.queued);
      },
    });
  }

  start(nc: NatsConnection, subjects: Subjects): void {
    this.#subscription = nc.subscribe(subjects.webhookNotices, {
      queue: NOTICE_QUEUE,
      callback: (error, msg) => {
        if (error) return this.#log.warn({ err: error }, 'webhook notice subscription error');
        let ids: unknown;
        try {
          ids = decodeJson(msg.data);
        } catch {
          return this.#log.warn('a webhook notice that is not JSON was ignored');
        }
        if (!Array.isArray(ids)) return;
        this.take(ids.filter((id): id is string => typeof id === 'string'));
      },
    });
  }

  /** Queues deliveries to send now (from a notice). */
  take(ids: readonly string[]): void {
    if (this.#stopped || ids.length === 0) return;
    if (this.queued + ids.length > MAX_QUEUED) {
      this.#notices.inc({ result: 'overflow' });
      return;
    }
    this.#notices.inc({ result: 'queued' });
    for (const id of ids) this.#queue.push(id);
    this.#pump();
  }

  get queued(): number {
    return this.#queue.length - this.#head;
  }

  #pump(): void {
    while (!this.#stopped && this.#running < WINDOW && this.queued > 0) {
      const chunk = this.#queue.slice(this.#head, this.#head + CHUNK);
      this.#head += chunk.length;
      if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      this.#running++;
      this.#deliverer
        .deliver(chunk)
        .catch((error: unknown) => {
          // not recorded: their leases lapse and the reconciler gives them a job
          this.#log.error({ err: error, deliveries: chunk.length }, 'could not send pushed webhook deliveries');
        })
        .finally(() => {
          this.#running--;
          this.#pump();
          if (this.#running === 0) for (const resolve of this.#idle) resolve();
        });
    }
  }

  /**
   * Draining: no more notices; chunks being sent finish; ids still waiting in memory are handed
   * back as `deliver_webhooks` jobs, for another dispatcher (or this one, restarted).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#subscription?.drain().catch(() => {});
    const left = this.#queue.slice(this.#head);
    this.#queue.length = 0;
    this.#head = 0;
    while (this.#running > 0) {
      await new Promise<void>((resolve) => this.#idle.add(resolve));
      this.#idle.clear();
    }
    for (let i = 0; i < left.length; i += 64) {
      await this.#pool
        .query(`select ${deliverBatchJobSql('$1::text[]')}`, [left.slice(i, i + 64)])
        .catch((error: unknown) => this.#log.warn({ err: error }, 'could not hand back pushed deliveries; the reconciler will'));
    }
  }
}
