/**
 * First attempts, pushed; endpoints owned; fair by construction.
 *
 * Environments are hashed to WEBHOOK_PARTITIONS webhook partitions (libs/bus), and each partition
 * is owned by one live dispatcher at a time (PartitionOwnership in libs/db: a Postgres advisory lock, as
 * the channel-nodes own theirs). So every send to an environment's endpoint is made by one
 * process, and its concurrency limit and circuit breaker (deliverer.ts) hold cluster-wide.
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
import { advanceLogPositions, dueDeliveries, handBackDeliveries, logAbove, loggedRow, logPositions, logRows, overdueUnleased, pendingDeliveries, readNotice, releaseClaims } from '@rtm/webhooks';
import type { LogPositions } from './log-positions.ts';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deliverer } from './deliverer.ts';
import type { EndpointGuard } from './endpoint-guard.ts';
import { SendWindow } from './send-window.ts';
import { byPartition, type Delivery } from './push-notices.ts';
import type { PushedRows } from './pushed-rows.ts';

/** Deliveries held in memory at most; a notice beyond is left to the catch-up (counted as overflow). */
const MAX_QUEUED = 50_000;
/** How long a job waits for the owner to take its deliveries before deferring them. */
const FORWARD_TIMEOUT_MS = 2_000;
/** How long deliveries no owner took wait before their job tries again (a partition is between owners for about a rebalance). */
const NO_OWNER_RETRY_MS = 1_000;
/** Ids per hand-back job. */
const HAND_BACK = 64;
/** A row due this long and neither leased nor queued by its owner lost its notice. */
export const NOTICE_GRACE_MS = 5_000;
/** How often the owner looks for such rows. */
const CATCH_UP_MS = 5_000;
/** Rows read per catch-up pass. */
const CATCH_UP_ROWS = 5_000;
/** How often rows held past their use are let go. */
const SWEEP_MS = 1_000;
/**
 * How often the owner reads the delivery log above where it stands, and stores its position: a
 * row whose notice was lost (or never sent: a body too large to carry) waits about this long.
 */
const LOG_READ_MS = 1_000;
/** Rows of the log read at most per pass. */
const LOG_READ_ROWS = 5_000;

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
  #logTimer: NodeJS.Timeout | undefined;
  #readingLog = false;
  readonly #subscriptions = new Map<number, Subscription>();
  #stopped = false;
  #catchUp: NodeJS.Timeout | undefined;
  #sweep: NodeJS.Timeout | undefined;
  #catchingUp = false;
  readonly #notices: Counter<'result'>;
  readonly #forwards: Counter<'result'>;
  readonly #caughtUp: Counter;
  readonly #adopted: Counter;
  readonly #fromLog: Counter;

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
    this.#notices = new Counter({
      name: 'webhook_notices_total',
      help: 'Delivery notices taken by this dispatcher as owner: queued (sent from memory) or overflow (left to the catch-up)',
      labelNames: ['result'],
      registers: [deps.metrics],
    });
    this.#forwards = new Counter({
      name: 'webhook_forwards_total',
      help: "Job deliveries routed by this dispatcher: queued_here (its own partition's, into its memory queue), sent_here (its own, its memory full), forwarded (taken by another partition's owner) or deferred (no owner took them: a job again in a second)",
      labelNames: ['result'],
      registers: [deps.metrics],
    });
    this.#caughtUp = new Counter({
      name: 'webhook_caught_up_total',
      help: 'Deliveries whose notice was lost, found in the ledger by their owner and queued',
      registers: [deps.metrics],
    });
    this.#adopted = new Counter({
      name: 'webhook_adopted_total',
      help: 'Deliveries of a dispatcher that died, taken over by this one when it took the partition (their dead leases claimed over)',
      registers: [deps.metrics],
    });
    this.#fromLog = new Counter({
      name: 'webhook_log_read_total',
      help: 'Deliveries of the delivery log this owner found without an outcome in its reads of the log (their notice lost, or a body too large to carry) and queued',
      registers: [deps.metrics],
    });
    const intake = this;
    new Gauge({
      name: 'webhook_push_queued',
      help: "Deliveries waiting in this dispatcher's memory: for a place in the send window, or held back by their endpoint's limit or open circuit",
      registers: [deps.metrics],
      collect() {
        this.set(intake.queued);
      },
    });
    new Gauge({
      name: 'webhook_push_rows_held',
      help: "Deliveries waiting in this dispatcher's memory with the row their notice carried: sent without a claim while their commit lease lasts",
      registers: [deps.metrics],
      collect() {
        this.set(deps.pushed.size);
      },
    });
    new Gauge({
      name: 'webhook_partitions_owned',
      help: "Webhook partitions (of 16) this dispatcher owns: it alone sends to their environments' endpoints",
      registers: [deps.metrics],
      collect() {
        this.set(intake.#subscriptions.size);
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
    this.#logTimer = setInterval(() => void this.readLog(), LOG_READ_MS);
    this.#logTimer.unref();
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
    const logged = ids.filter((id) => this.#pushed.logged(id) || this.#logged.holds(id));
    await this.#release(this.#pushed.drop(ids));
    // deliveries of the log have no ledger row to hand back: the next read of the log finds them
    this.#logged.forget(logged);
    const skip = new Set(logged);
    return ids.filter((id) => !skip.has(id));
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
   * Claimed deliveries whose endpoint had no room after all (deliverer.ts): back to the front of
   * their queue (their endpoint's own, `endpointId`, when its rate held them), to go when it has.
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

  /**
   * One read of the delivery log (docs/webhooks.md, "The delivery log"): the rows of the owned
   * partitions above where this owner has read, without a durable outcome, that it does not hold
   * (their notice lost, or never sent) are queued; then the position of each partition is stored:
   * the lesser of what has been read and the least position of a delivery held without an
   * outcome, so a next owner reading from there misses nothing.
   */
  async readLog(): Promise<void> {
    if (this.#readingLog || this.#stopped) return;
    const partitions = [...this.#subscriptions.keys()].filter((partition) => this.#logged.owns(partition));
    if (partitions.length === 0) return;
    this.#readingLog = true;
    try {
      const from = partitions.map((partition) => this.#logged.scanned(partition)!);
      this.#logged.watch();
      const { rows, below } = await logAbove(this.#pool, partitions, from, LOG_READ_ROWS);
      // rows are in position order across the partitions: with a full page, everything below the
      // last one was read (rows of its transaction beyond the page come again, and are skipped)
      let readTo = rows.length === LOG_READ_ROWS ? rows[rows.length - 1]!.tx : below;
      // the rows this owner does not hold (their notice lost, or never sent), up to its memory's room
      const missing = [];
      for (const place of rows) {
        if (!this.owns(place.partition) || !this.#logged.owns(place.partition)) continue;
        if (this.#window.has(place.id) || this.#logged.holds(place.id) || this.#logged.doneDuringRead(place.id)) continue;
        if (this.queued + missing.length >= MAX_QUEUED) {
          readTo = place.tx;
          break;
        }
        missing.push(place);
      }
      const found: Delivery[] = [];
      for (const row of await logRows(this.#pool, missing)) {
        if (this.#window.has(row.id) || this.#logged.holds(row.id) || this.#logged.doneDuringRead(row.id)) continue;
        if (!this.#logged.track(row.id, row.partition, row.tx)) continue;
        this.#pushed.add([
          {
            id: row.id,
            environmentId: row.environment_id,
            pushed: loggedRow(
              {
                endpointId: row.endpoint_id,
                url: row.url,
                eventType: row.event_type,
                eventId: row.event_id,
                body: row.body,
                secrets: row.secrets,
                rateLimit: row.rate_limit,
              },
              { tx: row.tx, createdAt: row.created_at },
            ),
          },
        ]);
        found.push([row.id, row.environment_id]);
      }
      for (const partition of partitions) this.#logged.scannedTo(partition, readTo);
      if (found.length > 0) {
        this.#fromLog.inc(found.length);
        this.#window.push(found);
      }
      const positions = this.#logged.positions();
      for (const partition of positions.keys()) if (!this.owns(partition)) positions.delete(partition);
      await advanceLogPositions(this.#pool, positions);
    } catch (error) {
      this.#log.warn({ err: error }, 'could not read the delivery log');
    } finally {
      this.#logged.unwatch();
      this.#readingLog = false;
    }
  }

  /**
   * A job's deliveries: those of partitions this dispatcher owns join its memory queues (as a
   * notice's would; sent at once if its memory is full); the others are forwarded to their owner,
   * which queues them the same way. If no owner takes them (none at the moment, NATS away, a full
   * memory) they go back into a job that runs NO_OWNER_RETRY_MS later: a dispatcher that does
   * not own an environment never sends its deliveries, whose rate and concurrency limits are
   * counted in the owner's memory (sent here, they had a second bucket of their own).
   */
  async route(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await pendingDeliveries(this.#pool, ids);
    const here: string[] = [];
    const deferred: string[] = [];
    await Promise.all(
      [...byPartition(rows, webhookPartitionOf)].map(async ([partition, list]) => {
        if (this.owns(partition)) {
          // a job of our own (a retry): it waits in memory with the pushed deliveries of its
          // endpoint, so one held back by the endpoint's limit, rate or open circuit is never
          // deferred through Postgres; the job ends now, and if this process dies the row is
          // pending and unleased, which the next owner's catch-up finds
          if (this.#take(list, false)) this.#forwards.inc({ result: 'queued_here' }, list.length);
          else {
            this.#forwards.inc({ result: 'sent_here' }, list.length);
            here.push(...list.map(([id]) => id));
          }
          return;
        }
        if (await this.#forward(partition, list)) this.#forwards.inc({ result: 'forwarded' }, list.length);
        else {
          // no owner took them (the partition between owners, NATS away, the owner's memory
          // full): only an owner sends, so its endpoints' rates and limits hold cluster-wide;
          // a new job tries again shortly, and the owner's catch-up finds them meanwhile
          this.#forwards.inc({ result: 'deferred' }, list.length);
          deferred.push(...list.map(([id]) => id));
        }
      }),
    );
    for (let i = 0; i < deferred.length; i += HAND_BACK) await handBackDeliveries(this.#pool, deferred.slice(i, i + HAND_BACK), NO_OWNER_RETRY_MS);
    if (here.length > 0) await this.#deliverer.deliver(here);
  }

  async #forward(partition: number, deliveries: Delivery[]): Promise<boolean> {
    if (this.#stopped) return false;
    try {
      const reply = await this.#nc.request(this.#subjects.webhookNotices(partition), encodeJson(deliveries), { timeout: FORWARD_TIMEOUT_MS });
      return (decodeJson<{ queued?: unknown }>(reply.data).queued ?? false) === true;
    } catch (error) {
      if (!isNoResponders(error) && !isTimeout(error)) this.#log.warn({ err: error, partition }, 'could not forward deliveries to their owner');
      return false;
    }
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
    clearInterval(this.#logTimer);
    for (const partition of [...this.#subscriptions.keys()]) await this.disown(partition);
    this.#stopped = true;
    this.#window.stop();
    await this.#window.settled();
  }
}
