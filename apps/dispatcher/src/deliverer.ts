/**
 * Sends deliveries and records what happened, in the ledger's own terms.
 *
 * States of a delivery (webhook_deliveries.status):
 *   pending   --2xx-------------------------------------> delivered (delivered_at, attempts)
 *   pending   --failure, attempt n <= schedule length---> pending (next_attempt_at = now + schedule[n-1],
 *                                                         a `deliver_webhook` job at that time, job key per delivery)
 *   pending   --failure, schedule exhausted-------------> dropped (the dead letter; stays for retention)
 *   pending   --410 Gone (any attempt)------------------> dropped (the receiver asked for no retry)
 *   dropped   --POST …/retry (gateway)------------------> pending (one more attempt now)
 *
 * The lease: a delivery is attempted only under a lease on its row (`locked_until`): its commit's
 * push lease, or a claim (chunk-leases.ts). So a delivery is never sent by two dispatchers at
 * once, and every record is fenced by the lease it was sent under. A job that finds its delivery
 * leased or not yet due puts a job at the time the row says, which corrects any job that ran too
 * early.
 *
 * First attempts come from the channel-nodes' post-commit notices (push-intake.ts), without a
 * job; a failed attempt's retry is a job.
 *
 * A delivery's life, step by step (claim or notice, admit, sign, send, settle, record, retry or
 * drop), is delivery/delivery-life.ts; this file cuts a job's deliveries into chunks, hands them
 * back when draining, and lets a job go before its slow sends end. The statements are
 * delivery/delivery-leases.ts; what a result means is attempt-outcome.ts; where an outcome is
 * written, attempt-records.ts.
 *
 * Leases and records are group-committed (statement-batcher.ts): a chunk's claim, and each send's
 * record as soon as that send ends (after a short gathering: attempt-records.ts), wait only for
 * the statement of their kind already running; then everything that gathered meanwhile goes in
 * one statement. Under load
 * a statement carries up to 512 deliveries of many chunks, so the database's work per delivery
 * falls as the rate rises.
 *
 * Where: a delivery goes to its endpoint's URL as it is at the claim (a retry follows a changed
 * URL); one whose endpoint is disabled now is not sent: deferred (`endpoint_disabled`) in the
 * ledger, attempts untouched, until enabling the endpoint queues it again.
 *
 * Fair sharing (endpoint-guard.ts): a claimed delivery may be held back instead of attempted: its
 * endpoint's circuit is open, its rate limit is spent, or its environment or host already has the
 * most sends in flight allowed (only the endpoint's owning dispatcher sends to it, so these hold
 * cluster-wide). Deliveries from the owner's memory are handed over only when their endpoint has
 * room, and one held back goes back there (`requeue`); one a job sends itself is deferred: the
 * lease released, `next_attempt_at` (and the keyed job) a little later, `attempts` untouched: it
 * is not an attempt, and it never drops a delivery.
 */
import type { Usage } from '@rtm/usage';
import type { Pool } from '@rtm/db';
import type { DispatcherConfig } from '@rtm/config';
import type { NatsConnection, Subjects } from '@rtm/bus';
import type { SecretKeyring } from '@rtm/webhooks';
import { handBackDeliveries } from './delivery/delivery-leases.ts';
import type { Logger } from '@rtm/ops';
import type { Registry } from 'prom-client';
import type { WebhookSender } from './send-webhook.ts';
import { AttemptRecords } from './attempt-records.ts';
import type { EndpointGuard } from './endpoint-guard.ts';
import { SigningSecrets } from './signing-secrets.ts';
import { deliveryMetrics } from './delivery-metrics.ts';
import type { PushedRows } from './pushed-rows.ts';
import type { LogPositions } from './log-positions.ts';
import { ChunkLeases } from './chunk-leases.ts';
import { DeliveryLife, type Requeue } from './delivery/delivery-life.ts';

/** Deliveries of one batch job sent at once. */
const PARALLEL_SENDS = 16;
/**
 * Leases and records are group-committed (statement-batcher.ts): at most this many of each kind
 * run at once, each carrying up to MAX_PER_STATEMENT deliveries of any number of chunks.
 */
const STATEMENTS_IN_FLIGHT = 2;
const MAX_PER_STATEMENT = 512;
/** The lease outlives the longest attempt by this much (the write of the result). */
export const LEASE_MARGIN_MS = 5_000;
/** How long a job waits for its sends before it leaves the slow ones to finish in the background. */
const JOB_HOLD_MS = 100;

export interface DelivererDeps {
  pool: Pool;
  nc: NatsConnection;
  subjects: Subjects;
  config: DispatcherConfig;
  log: Logger;
  metrics: Registry;
  sender: WebhookSender;
  secretKeyring: SecretKeyring;
  /** The owned endpoints' places, circuits and rates (shared with push-intake.ts). */
  endpoints: EndpointGuard;
  /** The rows the notices carried (shared with push-intake.ts): sent without a claim. */
  pushed?: PushedRows;
  /** The deliveries of the log held (shared with push-intake.ts): told when their outcomes are durable. */
  logged?: LogPositions;
  /** Counts the attempts recorded (attempt-records.ts). */
  usage?: Usage;
}

export class Deliverer {
  readonly #deps: DelivererDeps;
  readonly #leases: ChunkLeases;
  /** One chunk's deliveries from their lease to their record, step by step. */
  readonly #life: DeliveryLife;

  constructor(deps: DelivererDeps) {
    this.#deps = deps;
    const batching = { concurrency: STATEMENTS_IN_FLIGHT, maxItems: MAX_PER_STATEMENT };
    const metrics = deliveryMetrics(deps.metrics);
    const leaseMs = deps.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
    this.#leases = new ChunkLeases({
      pool: deps.pool,
      leaseMs,
      pushed: deps.pushed,
      metrics,
      batching,
      ...(deps.logged && { logged: deps.logged }),
    });
    this.#life = new DeliveryLife({
      ...deps,
      leases: this.#leases,
      // where each send's outcome goes: group-committed records, metrics, the live log
      records: new AttemptRecords({ ...deps, metrics, batching, leaseMs }),
      secrets: new SigningSecrets(deps.secretKeyring),
    });
  }

  #draining = false;
  readonly #background = new Set<Promise<unknown>>();

  /** Draining: chunks already sent are finished and recorded; the rest of each batch is handed back. */
  drain(): void {
    this.#draining = true;
  }

  /**
   * Delivers every due delivery among `ids`, a few at a time; reschedules the others.
   * `sending` is called once every send of the last chunk holds its concurrency place (or was put
   * back): from then on the places in flight count them, while the sends and the record go on.
   */
  async deliver(ids: readonly string[], sending?: () => void, requeue?: Requeue): Promise<void> {
    for (let start = 0; start < ids.length; start += PARALLEL_SENDS) {
      if (this.#draining) {
        // hand the rest back as a new batch job for another dispatcher (or this one, restarted),
        // their push leases released so that it may claim them at once
        const rest = await this.#leases.letGo(ids.slice(start));
        if (rest.length > 0) await handBackDeliveries(this.#deps.pool, rest);
        return;
      }
      // a chunk takes at most JOB_HOLD_MS longer than its fast sends: the next one is never held
      // back by an endpoint that hangs
      const last = start + PARALLEL_SENDS >= ids.length;
      await this.#deliverChunk(ids.slice(start, start + PARALLEL_SENDS), last ? sending : undefined, requeue);
    }
  }

  /** One chunk through its life (delivery-life.ts); the job waits for its sends at most JOB_HOLD_MS. */
  async #deliverChunk(chunk: readonly string[], sending?: () => void, requeue?: Requeue): Promise<void> {
    const { recorded: all } = await this.#life.live(chunk, sending, requeue);
    // A job holds a worker slot only briefly: sends still running after JOB_HOLD_MS (an endpoint
    // that hangs) finish in the background and are recorded when they end, so one environment's
    // slow endpoints cannot take every slot from the others' jobs. Nothing is lost: each send
    // keeps its lease, the record is fenced by it, and if this process dies the lease lapses and
    // the delivery is sent again (recovery, worker-recovery.ts).
    let hold: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      all.then(() => true),
      new Promise<boolean>((resolve) => (hold = setTimeout(() => resolve(false), JOB_HOLD_MS))),
    ]).finally(() => clearTimeout(hold));
    if (finished) return;
    const background: Promise<void> = all
      .then(() => undefined)
      .catch(() => {}) // logged once per statement (attempt-records.ts)
      .finally(() => this.#background.delete(background));
    this.#background.add(background);
  }

  /** Resolves once every send handed to the background has ended and been recorded (drain). */
  async settled(): Promise<void> {
    while (this.#background.size > 0) await Promise.all([...this.#background]);
  }
}
