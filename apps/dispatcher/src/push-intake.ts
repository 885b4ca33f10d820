/**
 * First attempts, pushed; endpoints owned; fair by construction.
 *
 * Environments are hashed to WEBHOOK_PARTITIONS webhook partitions (libs/bus), and each partition
 * is owned by one live dispatcher at a time (PartitionOwnership in libs/db: a Postgres advisory lock, as
 * the channel-nodes own theirs). So every send to an environment's endpoint is made by one
 * process, and its concurrency limit and circuit breaker (endpoint-guard.ts) hold cluster-wide.
 *
 * - A channel-node that commits webhook deliveries adds no job for them: after commit it
 *   publishes them (`[id, environmentId]` pairs) on `webhookNotices(partition)`, which only the
 *   owner subscribes to.
 * - They wait here, in memory, one queue per environment (its endpoint). The environments with
 *   deliveries waiting are taken in turn, and each gets only what it has room for: its
 *   concurrency limit minus its sends in flight, nothing while its circuit is open (one probe
 *   when it half-opens). So a delivery held back by its endpoint waits here, never re-queued
 *   through Postgres; an endpoint that hangs holds at most its own limit of sends, and its
 *   backlog never stands in front of another endpoint's deliveries. A chunk (one environment's
 *   deliveries, at most 16) goes to the deliverer, with up to 64 chunks being sent at once
 *   (send-window.ts: this memory, without NATS or Postgres); the deliverer claims and records
 *   them group-committed (statement-batcher.ts), so under load one claim statement and one
 *   record statement carry many chunks.
 * - Only an attempt that fails gets a job (`deliver_webhook` with `run_at` at the next step of
 *   the schedule, written by the record). A job (a retry, a retraction's batch, a hand-back) may
 *   run on any dispatcher: `route` queues its deliveries here when this dispatcher owns them,
 *   forwards them to their owner otherwise (a request on the same subject), and when no owner
 *   takes them puts them back into a job a second later: only an owner sends. So every delivery
 *   held back by its endpoint, a retry's too, waits in its owner's memory, and an endpoint's rate
 *   and concurrency limits hold cluster-wide.
 *
 * The row is the truth, a notice only a wake-up. Every CATCH_UP_MS the owner looks for pending,
 * unleased rows due for more than NOTICE_GRACE_MS of the environments it owns and has nothing
 * queued for (a notice lost to NATS, or sent while the partition had no owner, or held by an
 * owner that died) and queues them. So a lost notice delays a delivery by at most
 * NOTICE_GRACE_MS + CATCH_UP_MS (plus a rebalance, ~1 s, when the partition had no owner); the
 * reconciler's overdue rule (worker-recovery.ts, WEBHOOK_STALE_AFTER) stays the backstop.
 * Sending twice at once is prevented by the claim's lease, as for any job.
 */
import { decodeJson, encodeJson, webhookPartitionOf, type Msg, type NatsConnection, type Subjects, type Subscription } from '@rtm/bus';
import { readNotice } from '@rtm/webhooks';
import { dueDeliveries, overdueUnleased } from './intake/pending-reads.ts';
import { handBackDeliveries, releaseClaims } from './delivery/delivery-leases.ts';
import { logPositions } from './intake/delivery-log.ts';
import type { LogPositions } from './log-positions.ts';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import type { Counter, Registry } from 'prom-client';
import { intakeMetrics } from './intake-metrics.ts';
import type { Deliverer } from './deliverer.ts';
import type { EndpointGuard } from './endpoint-guard.ts';
import { SendWindow } from './send-window.ts';
import { LogReader } from './log-reader.ts';
import { HAND_BACK, JobRouter } from './job-routing.ts';
import type { Delivery } from './push-notices.ts';
import { letGo, type PushedRows } from './pushed-rows.ts';

/** Deliveries held in memory at most; a notice beyond is left to the catch-up (counted as overflow). */
const MAX_QUEUED = 50_000;
/** A row due this long and neither leased nor queued by its owner lost its notice. */
export const NOTICE_GRACE_MS = 5_000;
/** How often the owner looks for such rows. */
const CATCH_UP_MS = 5_000;
/** Rows read per catch-up pass. */
const CATCH_UP_ROWS = 5_000;
/** How often rows held past their use are let go. */
const SWEEP_MS = 1_000;
export class PushIntake {
  readonly #deliverer: Deliverer;
  readonly #pool: Pool;
  readonly #log: Logger;
  readonly #nc: NatsConnection;
  readonly #subjects: Subjects;
  /** The deliveries waiting per endpoint and the chunks being sent (send-window.ts). */
  readonly #window: SendWindow;
  /** The rows the notices carried, sent without a claim (deliverer.ts). */
  readonly #pushed: PushedRows;
  /** Where this owner stands in the delivery log of each partition (log-positions.ts). */
  readonly #logged: LogPositions;
  /** The owner's reads of the delivery log (log-reader.ts). */
  readonly #logReader: LogReader;
  readonly #subscriptions = new Map<number, Subscription>();
  #stopped = false;
  #catchUp: NodeJS.Timeout | undefined;
  #sweep: NodeJS.Timeout | undefined;
  #catchingUp = false;
  readonly #notices: Counter<'result'>;
  /** A job's deliveries, queued here or forwarded to their owner (job-routing.ts). */
  readonly #router: JobRouter;
  readonly #caughtUp: Counter;
  readonly #adopted: Counter;

  constructor(deps: {
    deliverer: Deliverer;
    endpoints: EndpointGuard;
    pool: Pool;
    log: Logger;
    metrics: Registry;
    nc: NatsConnection;
    subjects: Subjects;
    pushed: PushedRows;
    logged: LogPositions;
  }) {
    this.#deliverer = deps.deliverer;
    this.#logged = deps.logged;
    this.#pushed = deps.pushed;
    this.#pool = deps.pool;
    this.#log = deps.log;
    this.#nc = deps.nc;
    this.#subjects = deps.subjects;
    const metrics = intakeMetrics(deps.metrics, {
      queued: () => this.queued,
      held: () => deps.pushed.size,
      owned: () => this.#subscriptions.size,
    });
    this.#notices = metrics.notices;
    this.#caughtUp = metrics.caughtUp;
    this.#adopted = metrics.adopted;
    const { pool, log, nc, subjects, logged, pushed } = deps;
    this.#router = new JobRouter({
      pool,
      log,
      nc,
      subjects,
      forwards: metrics.forwards,
      deliver: (ids) => this.#deliverer.deliver(ids),
      intake: { owns: (partition) => this.owns(partition), take: (deliveries) => this.#take(deliveries, false), stopped: () => this.#stopped },
    });
    this.#logReader = new LogReader({
      pool,
      log,
      logged,
      pushed,
      metrics: deps.metrics,
      intake: {
        partitions: () => [...this.#subscriptions.keys()],
        owns: (partition) => this.owns(partition),
        has: (id) => this.#window.has(id),
        room: () => MAX_QUEUED - this.queued,
        push: (deliveries) => this.#window.push(deliveries),
        stopped: () => this.#stopped,
      },
    });
    this.#window = new SendWindow({
      endpoints: deps.endpoints,
      send: (ids, sending, requeue) => this.#deliverer.deliver(ids, sending, requeue),
      putBack: (environmentId, ids, endpointId) => this.#requeue(environmentId, ids, endpointId),
      // not recorded: their leases lapse and the reconciler gives them a job; deliveries of the
      // log are let go, the next read of the log finds them
      failed: (error, ids) => {
        this.#logged.forget(ids);
        this.#log.error({ err: error, deliveries: ids.length }, 'could not send pushed webhook deliveries');
      },
    });
  }

  get queued(): number {
    return this.#window.queued;
  }

  owns(partition: number): boolean {
    return this.#subscriptions.has(partition);
  }

  /**
   * Starts the catch-up passes (after the first partitions are owned), and the sweep that lets go
   * of rows held past their use (pushed-rows.ts): their push leases released, they wait as ids.
   */
  start(): void {
    this.#catchUp = setInterval(() => void this.catchUp(), CATCH_UP_MS);
    this.#catchUp.unref();
    this.#sweep = setInterval(() => void this.#release(this.#pushed.expired()), SWEEP_MS);
    this.#sweep.unref();
    this.#logReader.start();
  }

  /**
   * Starts serving a partition (its lock is held): its notices and forwarded deliveries come here.
   * `orphaned`: its last owner died holding it (PartitionOwnership's holders), so the rows it had
   * leased (pushed to it, or claimed and being sent when it died) are nobody's: they are taken
   * over at once, their dead leases claimed over, instead of waiting for those leases to run out
   * (the push lease, 30 s by default) and the catch-up. A send that was on the wire when the owner
   * died is made again: the only duplicates a crash causes. The rows are read before the
   * subscription is made, so a row is either read here or arrives in a notice, not both (a row
   * committed in between waits for its lease and the catch-up).
   */
  async own(partition: number, orphaned = false): Promise<void> {
    if (this.#stopped || this.#subscriptions.has(partition)) return;
    const adopted = orphaned ? await this.#orphans(partition) : [];
    // where the delivery log of the partition is to be read from: every row below it has its
    // outcome; the rows above it that have none are this owner's to send (a notice of each that
    // comes from now on is tracked from that position too)
    const positions = await logPositions(this.#pool, [partition]);
    this.#logged.open(partition, positions.get(partition)!);
    const subscription = this.#nc.subscribe(this.#subjects.webhookNotices(partition), {
      callback: (error, msg) => {
        if (error) return this.#log.warn({ err: error, partition }, 'webhook notice subscription error');
        this.#onNotice(msg);
      },
    });
    this.#subscriptions.set(partition, subscription);
    // the subscription is in place at the server before another dispatcher forwards to us
    await this.#nc.flush();
    if (adopted.length > 0) {
      this.#pushed.inherit(adopted);
      this.#adopted.inc(adopted.length);
      this.#window.push(adopted.map(({ id, environment_id }): Delivery => [id, environment_id]));
      this.#log.warn({ partition, deliveries: adopted.length }, 'took over the deliveries of a dispatcher that died');
    }
    // the log's rows a previous owner left without an outcome go at once, not at the next pass
    void this.readLog();
  }

  /** The pending, due rows of `partition` (leased or not) that this dispatcher has room for. */
  async #orphans(partition: number): Promise<{ id: string; environment_id: string; lease: string | null }[]> {
    try {
      const room = Math.max(0, MAX_QUEUED - this.queued);
      const rows = await dueDeliveries(this.#pool, MAX_QUEUED);
      return rows.filter((row) => webhookPartitionOf(row.environment_id) === partition && !this.#window.has(row.id)).slice(0, room);
    } catch (error) {
      // their leases lapse and the catch-up finds them
      this.#log.warn({ err: error, partition }, 'could not read the deliveries of a dispatcher that died');
      return [];
    }
  }

  /**
   * Stops serving a partition (before its lock is let go): no more notices; its deliveries still
   * queued here are handed back as `deliver_webhooks` jobs, which forward them to the next owner.
   */
  async disown(partition: number): Promise<void> {
    const subscription = this.#subscriptions.get(partition);
    this.#subscriptions.delete(partition);
    subscription?.unsubscribe();
    await this.#handBack(this.#window.removeWhere((environmentId) => webhookPartitionOf(environmentId) === partition));
    // its position stays where this owner last stored it: the next owner reads on from there
    this.#logged.close(partition);
  }

  /** The lock connection broke: every partition is gone at once. */
  lost(): void {
    for (const partition of [...this.#subscriptions.keys()]) {
      void this.disown(partition).catch((error: unknown) => this.#log.warn({ err: error, partition }, 'could not hand back deliveries'));
    }
  }

  #onNotice(msg: Msg): void {
    let body: unknown;
    try {
      body = decodeJson(msg.data);
    } catch {
      this.#log.warn('a webhook notice that is not JSON was ignored');
      return;
    }
    const entries = readNotice(body);
    // cancelled while leased (their message retracted or deleted): the body held for each goes,
    // unsent; an id still queued is claimed later, and the claim finds it no longer pending
    // (a publish and its retraction in one commit: its row and its withdrawal in one notice)
    let deliveries = entries;
    if (entries.some((entry) => entry.withdrawn)) {
      const withdrawn = new Set(entries.filter((entry) => entry.withdrawn).map(({ id }) => id));
      deliveries = entries.filter(({ id }) => !withdrawn.has(id));
      this.#pushed.drop([...withdrawn]);
    }
    // the rows first: taking the ids may start their sends at once, which look the rows up
    this.#pushed.add(deliveries);
    // deliveries of the log are tracked before they can start (and end) sending
    const tracked: string[] = [];
    for (const { id, environmentId, pushed } of deliveries) {
      if (pushed?.logged && this.#logged.track(id, webhookPartitionOf(environmentId), pushed.logged.tx)) tracked.push(id);
    }
    const queued = this.#take(deliveries.map(({ id, environmentId }): Delivery => [id, environmentId]));
    if (!queued) {
      // not kept: the next read of the log finds them (`forget` moves it back to them if need be)
      this.#logged.forget(tracked);
      void this.#letGo(deliveries.map(({ id }) => id));
    }
    if (msg.reply) msg.respond(encodeJson({ queued }));
  }

  /**
   * Rows of deliveries this dispatcher does not keep (not its partition any more, its memory
   * full, stopping): their push leases released, so that whoever takes them may claim them at
   * once (fenced by the lease: a row sent meanwhile is not touched).
   */
  async #letGo(ids: readonly string[]): Promise<string[]> {
    const { held, ledger } = letGo(ids, this.#pushed, this.#logged);
    await this.#release(held);
    return ledger;
  }

  async #release(held: readonly { id: string; lease: string }[]): Promise<void> {
    if (held.length === 0) return;
    await releaseClaims(this.#pool, held).catch((error: unknown) =>
      this.#log.warn({ err: error, deliveries: held.length }, 'could not release push leases; they lapse'),
    );
  }

  /**
   * Queues deliveries of owned partitions to send as soon as their endpoint has room; false if
   * they were not taken. `notice`: they came in a notice (counted in webhook_notices_total), not
   * from one of this dispatcher's own jobs.
   */
  #take(deliveries: readonly Delivery[], notice = true): boolean {
    if (this.#stopped) return false;
    if (deliveries.length === 0) return true;
    if (deliveries.some(([, environmentId]) => !this.owns(webhookPartitionOf(environmentId)))) return false;
    if (this.queued + deliveries.length > MAX_QUEUED) {
      if (notice) this.#notices.inc({ result: 'overflow' });
      return false;
    }
    if (notice) this.#notices.inc({ result: 'queued' });
    this.#window.push(deliveries);
    return true;
  }

  /**
   * Claimed deliveries whose endpoint had no room after all (delivery/delivery-life.ts): back to
   * the front of their queue (their endpoint's own, `endpointId`, when its rate held them), to go
   * when it has.
   * Handed back as a job if this dispatcher no longer owns them.
   */
  #requeue(environmentId: string, ids: string[], endpointId?: string): void {
    if (this.#stopped || !this.owns(webhookPartitionOf(environmentId))) {
      void this.#handBack(ids);
      return;
    }
    this.#window.unshift(environmentId, ids, endpointId ?? null);
  }

  /**
   * One catch-up pass: rows of environments this dispatcher owns and has nothing queued for,
   * pending, unleased and due for more than NOTICE_GRACE_MS (their notice was lost), are queued.
   */
  async catchUp(): Promise<void> {
    if (this.#catchingUp || this.#stopped || this.#subscriptions.size === 0) return;
    this.#catchingUp = true;
    try {
      const rows = await overdueUnleased(this.#pool, { graceMs: NOTICE_GRACE_MS, skip: this.#window.environments, limit: CATCH_UP_ROWS });
      const found = rows
        .filter((row) => this.owns(webhookPartitionOf(row.environment_id)) && !this.#window.has(row.id))
        .slice(0, Math.max(0, MAX_QUEUED - this.queued))
        .map((row): Delivery => [row.id, row.environment_id]);
      if (found.length > 0) {
        this.#caughtUp.inc(found.length);
        this.#window.push(found);
      }
    } catch (error) {
      this.#log.warn({ err: error }, 'webhook catch-up pass failed');
    } finally {
      this.#catchingUp = false;
    }
  }

  /** One read of the delivery log now (log-reader.ts; also every LOG_READ_MS). */
  readLog(): Promise<void> {
    return this.#logReader.read();
  }

  /** A job's deliveries, queued here or forwarded to their owner (job-routing.ts). */
  route(ids: readonly string[]): Promise<void> {
    return this.#router.route(ids);
  }

  async #handBack(all: readonly string[]): Promise<void> {
    const ids = await this.#letGo(all);
    for (let i = 0; i < ids.length; i += HAND_BACK) {
      await handBackDeliveries(this.#pool, ids.slice(i, i + HAND_BACK)).catch((error: unknown) =>
        this.#log.warn({ err: error }, 'could not hand back queued deliveries; the catch-up will'),
      );
    }
  }

  /**
   * Draining (after the partitions were given back): chunks being sent finish; anything still
   * queued is handed back as `deliver_webhooks` jobs.
   */
  async stop(): Promise<void> {
    clearInterval(this.#catchUp);
    clearInterval(this.#sweep);
    this.#logReader.stop();
    for (const partition of [...this.#subscriptions.keys()]) await this.disown(partition);
    this.#stopped = true;
    this.#window.stop();
    await this.#window.settled();
  }
}
