/**
 * First attempts, pushed, and endpoints owned.
 *
 * Environments are hashed to WEBHOOK_PARTITIONS webhook partitions (libs/bus), and each partition
 * is owned by one live dispatcher at a time (partition-ownership.ts: a Postgres advisory lock, as
 * the channel-nodes own theirs). So every send to an environment's endpoint is made by one
 * process, and its concurrency limit and circuit breaker (deliverer.ts) hold cluster-wide.
 *
 * - A channel-node that commits webhook deliveries adds no job for them: after commit it
 *   publishes their ids on `webhookNotices(partition)`, which only the owner subscribes to.
 * - The ids wait here, in memory, one queue per partition, and are sent at once by the
 *   deliverer: a chunk at a time (one claim statement and one record statement per chunk), up to
 *   WINDOW chunks in flight, the partitions taken in turn. Only an attempt that fails gets a job
 *   (`deliver_webhook` with `run_at` at the next step of the schedule, written by the record).
 * - A job (a retry, a retraction's batch, a reconciled row) may run on any dispatcher: `route`
 *   forwards its deliveries to their owner (a request on the same subject), or sends them here
 *   when this dispatcher owns them or no owner answers.
 *
 * The row is the truth, a notice only a wake-up. One that never arrives or is never sent (no
 * owner at that moment, NATS down, the owner killed with ids queued, its queue full) leaves a
 * pending, due, unleased row that nobody claimed: the reconciler (worker-recovery.ts) gives it a
 * job once it has been due for NOTICE_GRACE_MS, so it is sent at most NOTICE_GRACE_MS + one
 * reconcile period (10 s) + one recovery interval late. Sending twice at once is prevented by the
 * claim's lease, as for any job.
 */
import {
  decodeJson,
  encodeJson,
  isNoResponders,
  isTimeout,
  webhookPartitionOf,
  type Msg,
  type NatsConnection,
  type Subjects,
  type Subscription,
} from '@rtm/bus';
import { deliverBatchJobSql } from '@rtm/webhooks';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deliverer } from './deliverer.ts';

/** Deliveries per claim (one statement) and per record (one statement). */
const CHUNK = 16;
/** Chunks being sent at once by this dispatcher (their slow sends finish in the background). */
const WINDOW = 8;
/** Ids held in memory at most; a notice beyond is left to the reconciler (counted as overflow). */
const MAX_QUEUED = 50_000;
/** How long a job waits for the owner to take its deliveries before sending them itself. */
const FORWARD_TIMEOUT_MS = 2_000;
/** Ids per hand-back job. */
const HAND_BACK = 64;

export class PushIntake {
  readonly #deliverer: Deliverer;
  readonly #pool: Pool;
  readonly #log: Logger;
  readonly #nc: NatsConnection;
  readonly #subjects: Subjects;
  readonly #queues = new Map<number, string[]>();
  readonly #subscriptions = new Map<number, Subscription>();
  #queued = 0;
  #turn = 0;
  #running = 0;
  #stopped = false;
  readonly #idle = new Set<() => void>();
  readonly #notices: Counter<'result'>;
  readonly #forwards: Counter<'result'>;

  constructor(deps: { deliverer: Deliverer; pool: Pool; log: Logger; metrics: Registry; nc: NatsConnection; subjects: Subjects }) {
    this.#deliverer = deps.deliverer;
    this.#pool = deps.pool;
    this.#log = deps.log;
    this.#nc = deps.nc;
    this.#subjects = deps.subjects;
    this.#notices = new Counter({
      name: 'webhook_notices_total',
      help: 'Delivery notices taken by this dispatcher as owner: queued (sent from memory) or overflow (left to the reconciler)',
      labelNames: ['result'],
      registers: [deps.metrics],
    });
    this.#forwards = new Counter({
      name: 'webhook_forwards_total',
      help: 'Job deliveries of partitions this dispatcher does not own: forwarded (taken by the owner) or sent_here (no owner answered)',
      labelNames: ['result'],
      registers: [deps.metrics],
    });
    const intake = this;
    new Gauge({
      name: 'webhook_push_queued',
      help: "Deliveries taken from notices and waiting in this dispatcher's memory for a place in the send window",
      registers: [deps.metrics],
      collect() {
        this.set(intake.queued);
      },
    });
    new Gauge({
      name: 'webhook_partitions_owned',
      help: 'Webhook partitions (of 16) this dispatcher owns: it alone sends to their environments\' endpoints',
      registers: [deps.metrics],
      collect() {
        this.set(intake.#subscriptions.size);
      },
    });
  }

  get queued(): number {
    return this.#queued;
  }

  owns(partition: number): boolean {
    return this.#subscriptions.has(partition);
  }

  /** Starts serving a partition (its lock is held): its notices and forwarded deliveries come here. */
  async own(partition: number): Promise<void> {
    if (this.#stopped || this.#subscriptions.has(partition)) return;
    const subscription = this.#nc.subscribe(this.#subjects.webhookNotices(partition), {
      callback: (error, msg) => {
        if (error) return this.#log.warn({ err: error, partition }, 'webhook notice subscription error');
        this.#onNotice(partition, msg);
      },
    });
    this.#subscriptions.set(partition, subscription);
    // the subscription is in place at the server before another dispatcher forwards to us
    await this.#nc.flush();
  }

  /**
   * Stops serving a partition (before its lock is let go): no more notices; its deliveries still
   * queued here are handed back as `deliver_webhooks` jobs, which forward them to the next owner.
   */
  async disown(partition: number): Promise<void> {
    const subscription = this.#subscriptions.get(partition);
    this.#subscriptions.delete(partition);
    subscription?.unsubscribe();
    const left = this.#queues.get(partition) ?? [];
    this.#queues.delete(partition);
    this.#queued -= left.length;
    await this.#handBack(left);
  }

  /** The lock connection broke: every partition is gone at once. */
  lost(): void {
    for (const partition of [...this.#subscriptions.keys()]) {
      void this.disown(partition).catch((error: unknown) => this.#log.warn({ err: error, partition }, 'could not hand back deliveries'));
    }
  }

  #onNotice(partition: number, msg: Msg): void {
    let ids: unknown;
    try {
      ids = decodeJson(msg.data);
    } catch {
      this.#log.warn('a webhook notice that is not JSON was ignored');
      return;
    }
    const list = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
    const queued = this.#take(partition, list);
    if (msg.reply) msg.respond(encodeJson({ queued }));
  }

  /** Queues deliveries of an owned partition to send now; false if they were not taken. */
  #take(partition: number, ids: readonly string[]): boolean {
    if (this.#stopped || !this.#subscriptions.has(partition)) return false;
    if (ids.length === 0) return true;
    if (this.#queued + ids.length > MAX_QUEUED) {
      this.#notices.inc({ result: 'overflow' });
      return false;
    }
    this.#notices.inc({ result: 'queued' });
    let queue = this.#queues.get(partition);
    if (!queue) this.#queues.set(partition, (queue = []));
    for (const id of ids) queue.push(id);
    this.#queued += ids.length;
    this.#pump();
    return true;
  }

  /** The next chunk, the partitions with deliveries waiting taken in turn. */
  #nextChunk(): string[] | undefined {
    const partitions = [...this.#queues.keys()];
    for (let i = 0; i < partitions.length; i++) {
      const partition = partitions[(this.#turn + i) % partitions.length]!;
      const queue = this.#queues.get(partition)!;
      if (queue.length === 0) continue;
      this.#turn = (this.#turn + i + 1) % partitions.length;
      const chunk = queue.splice(0, CHUNK);
      if (queue.length === 0) this.#queues.delete(partition);
      this.#queued -= chunk.length;
      return chunk;
    }
    return undefined;
  }

  #pump(): void {
    while (!this.#stopped && this.#running < WINDOW && this.#queued > 0) {
      const chunk = this.#nextChunk();
      if (!chunk) return;
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
   * A job's deliveries: those of partitions this dispatcher owns are sent here, by the job (it
   * lasts as long as a chunk's fast sends, deliverer.ts); the others are
   * forwarded to their owner, or sent here if no owner takes them (none at the moment, NATS
   * away): the lease still keeps them from being sent twice at once.
   */
  async route(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const { rows } = await this.#pool.query<{ id: string; environment_id: string }>(
      `select id, environment_id from webhook_deliveries where id = any($1::text[]) and status = 'pending'`,
      [ids],
    );
    const byPartition = new Map<number, string[]>();
    for (const row of rows) {
      const partition = webhookPartitionOf(row.environment_id);
      const list = byPartition.get(partition);
      if (list) list.push(row.id);
      else byPartition.set(partition, [row.id]);
    }
    const here: string[] = [];
    await Promise.all(
      [...byPartition].map(async ([partition, list]) => {
        if (this.owns(partition)) {
          here.push(...list);
          return;
        }
        if (await this.#forward(partition, list)) this.#forwards.inc({ result: 'forwarded' }, list.length);
        else {
          this.#forwards.inc({ result: 'sent_here' }, list.length);
          here.push(...list);
        }
      }),
    );
    if (here.length > 0) await this.#deliverer.deliver(here);
  }

  async #forward(partition: number, ids: string[]): Promise<boolean> {
    if (this.#stopped) return false;
    try {
      const reply = await this.#nc.request(this.#subjects.webhookNotices(partition), encodeJson(ids), { timeout: FORWARD_TIMEOUT_MS });
      return (decodeJson<{ queued?: unknown }>(reply.data).queued ?? false) === true;
    } catch (error) {
      if (!isNoResponders(error) && !isTimeout(error)) this.#log.warn({ err: error, partition }, 'could not forward deliveries to their owner');
      return false;
    }
  }

  async #handBack(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += HAND_BACK) {
      await this.#pool
        .query(`select ${deliverBatchJobSql('$1::text[]')}`, [ids.slice(i, i + HAND_BACK)])
        .catch((error: unknown) => this.#log.warn({ err: error }, 'could not hand back queued deliveries; the reconciler will'));
    }
  }

  /**
   * Draining (after the partitions were given back): chunks being sent finish; anything still
   * queued is handed back as `deliver_webhooks` jobs.
   */
  async stop(): Promise<void> {
    for (const partition of [...this.#subscriptions.keys()]) await this.disown(partition);
    this.#stopped = true;
    while (this.#running > 0) {
      await new Promise<void>((resolve) => this.#idle.add(resolve));
      this.#idle.clear();
    }
  }
}
