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
 * The statements are delivery/delivery-leases.ts; what a result means is
 * attempt-outcome.ts; where an outcome is written, attempt-records.ts. This file decides when
 * each runs.
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
import { publishLog, type NatsConnection, type Subjects } from '@rtm/bus';
import { redactWebhookUrl, type SecretKeyring } from '@rtm/webhooks';
import { handBackDeliveries, type ClaimedDelivery } from './delivery/delivery-leases.ts';
import { deliverySignatures } from './delivery/delivery-headers.ts';
import type { Logger } from '@rtm/ops';
import type { Registry } from 'prom-client';
import { SendDeadline, type WebhookSender, type SendResult } from './send-webhook.ts';
import { AttemptRecords } from './attempt-records.ts';
import type { EndpointGuard } from './endpoint-guard.ts';
import { circuitKey, endpointOf, settleAttempt, type Outcome } from './attempt-outcome.ts';
import { SigningSecrets } from './signing-secrets.ts';
import { deliveryMetrics, type DeliveryMetrics } from './delivery-metrics.ts';
import type { PushedRows } from './pushed-rows.ts';
import type { LogPositions } from './log-positions.ts';
import { ChunkLeases, WAITS_IN_LEDGER, type Deferral } from './chunk-leases.ts';

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
/** A delivery deferred by the concurrency limits is looked at again after 1–2 s. */
const DEFER_MS = 1_000;
/** How long a job waits for its sends before it leaves the slow ones to finish in the background. */
const JOB_HOLD_MS = 100;
const DEFER_JITTER_MS = 1_000;
/**
 * A delivery of a disabled endpoint is looked at again after this long: enabling the endpoint (or
 * deploying a webhook URL after none, for the default one) makes its waiting deliveries due at
 * once, so this only bounds the cost of a backlog that waits, one deferral per delivery an hour.
 */
const DISABLED_WAIT_MS = 3_600_000;

type Claimed = ClaimedDelivery;

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
  readonly #metrics: DeliveryMetrics;
  readonly #endpoints: EndpointGuard;
  readonly #leases: ChunkLeases;
  /** Where each send's outcome goes: group-committed records, metrics, the live log (attempt-records.ts). */
  readonly #records: AttemptRecords;
  readonly #secrets: SigningSecrets;

  constructor(deps: DelivererDeps) {
    this.#deps = deps;
    const batching = { concurrency: STATEMENTS_IN_FLIGHT, maxItems: MAX_PER_STATEMENT };
    this.#metrics = deliveryMetrics(deps.metrics);
    const leaseMs = deps.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
    this.#leases = new ChunkLeases({
      pool: deps.pool,
      leaseMs,
      pushed: deps.pushed,
      metrics: this.#metrics,
      batching,
      ...(deps.logged && { logged: deps.logged }),
    });
    this.#records = new AttemptRecords({ ...deps, metrics: this.#metrics, batching, leaseMs });
    this.#endpoints = deps.endpoints;
    this.#secrets = new SigningSecrets(deps.secretKeyring);
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
  async deliver(ids: readonly string[], sending?: () => void, requeue?: (ids: string[], endpointId?: string) => void): Promise<void> {
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

  /**
   * `requeue`: the chunk came from the owner's memory queues (push-intake.ts). A delivery of it
   * that finds its endpoint without room after all (claimed ahead while the endpoint's sends were
   * coming back, and they did not within GATE_WAIT_MS; or its circuit opened or rate ran out
   * meanwhile) goes back to that queue with its lease released, instead of being deferred
   * through Postgres: it waits in memory for its endpoint like the rest.
   */
  async #deliverChunk(chunk: readonly string[], sending?: () => void, requeue?: (ids: string[], endpointId?: string) => void): Promise<void> {
    const { rows: claimed, held } = await this.#leases.take(chunk);
    // one deadline for the chunk, counted from the claim: every send ends within the timeout,
    // inside the lease (and a late record is fenced off by the lease anyway)
    const deadline = new SendDeadline(this.#deps.config.WEBHOOK_TIMEOUT_MS);
    if (claimed.length < chunk.length) {
      const got = new Set(claimed.map((row) => row.id));
      const missing = chunk.filter((id) => !got.has(id));
      // a delivery of the log whose row is not held (withdrawn, or let go) has no ledger row to
      // claim: let go, the next read of the log finds it if it still has no outcome
      this.#deps.logged?.forget(missing);
      await this.#leases.reschedule(missing);
    }
    const deferrals: Deferral[] = [];
    // each send is recorded as soon as it ends, together with whatever else ended meanwhile
    // (one statement for many chunks' sends: #records)
    const recorded: Promise<void>[] = [];
    const waits: Promise<void>[] = [];
    for (const row of claimed) {
      const admitted = this.#admit(row);
      if ('until' in admitted) {
        deferrals.push(admitted);
        continue;
      }
      // a place for its environment and host: at once (the common case, no promise), or after a
      // short wait (delivery/concurrency-gate.ts)
      const endpoint = endpointOf(row);
      const now = this.#endpoints.acquireNow(row.environment_id, endpoint);
      if (now) {
        recorded.push(this.#sendAndRecord(row, admitted.secrets, now, deadline));
        continue;
      }
      waits.push(
        this.#endpoints.acquire(row.environment_id, endpoint).then((release) => {
          if (!release) {
            // a probe that cannot go now gives its turn back: the circuit may let the next one probe
            if (admitted.probe) this.#endpoints.abandon(circuitKey(row), Date.now());
            deferrals.push({ row, until: Date.now() + DEFER_MS + Math.random() * DEFER_JITTER_MS, reason: 'concurrency' });
            return;
          }
          recorded.push(this.#sendAndRecord(row, admitted.secrets, release, deadline));
        }),
      );
    }
    if (waits.length > 0) await Promise.all(waits);
    sending?.();
    const all = Promise.all(recorded).finally(() => deadline.clear());
    if (requeue) {
      const back = deferrals.filter((d) => !WAITS_IN_LEDGER.has(d.reason));
      if (back.length > 0) {
        await this.#leases.release(back.map((d) => d.row), held);
        // an endpoint with a rate of its own keeps its held deliveries in a queue of its own, so
        // they never stand in front of the environment's other endpoints (endpoint-queues.ts)
        const lanes = new Map<string | undefined, string[]>();
        for (const { row } of back) {
          const lane = row.endpoint_id !== null && this.#endpoints.limits(row.endpoint_id) ? row.endpoint_id : undefined;
          const ids = lanes.get(lane);
          if (ids) ids.push(row.id);
          else lanes.set(lane, [row.id]);
        }
        for (const [lane, ids] of lanes) requeue(ids, lane);
      }
      await this.#leases.defer(deferrals.filter((d) => WAITS_IN_LEDGER.has(d.reason)));
    } else {
      await this.#leases.defer(deferrals);
    }
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

  /**
   * Whether a claimed delivery may be attempted: its signing secrets readable and its endpoint's
   * circuit admitting it (`probe`: it is the circuit's trial attempt). Otherwise a deferral. The
   * concurrency places are taken by the caller.
   */
  #admit(row: Claimed): Deferral | { secrets: string[] | null; probe: boolean } {
    const now = Date.now();
    // disabled since it was recorded (or the configuration has no URL now): no send; it waits in
    // the ledger, not an attempt, until enabling it queues it again (or DISABLED_WAIT_MS passes)
    if (row.target_url === null) return { row, until: now + DISABLED_WAIT_MS, reason: 'endpoint_disabled' };
    let secrets: string[] | null;
    try {
      secrets = this.#secrets.of(row, now);
    } catch (error) {
      // a key this dispatcher lacks (another process started with a newer one): the operator's
      // to fix; the delivery waits rather than fail for the tenant
      this.#deps.log.error({ err: { message: (error as Error).message }, environmentId: row.environment_id }, 'cannot decrypt a webhook secret');
      return { row, until: now + this.#deps.config.WEBHOOK_BREAKER_COOLDOWN, reason: 'secret_unreadable' };
    }
    const endpoint = row.endpoint_id === null ? undefined : { id: row.endpoint_id, rate: row.rate_limit };
    const admission = this.#endpoints.admit(row.environment_id, circuitKey(row), now, endpoint);
    if (!admission.ok) return { row, until: admission.retryAt + Math.random() * DEFER_JITTER_MS, reason: admission.reason };
    return { secrets, probe: admission.probe };
  }

  /** Sends one admitted delivery and hands its outcome to the records (#records). */
  async #sendAndRecord(row: Claimed, secrets: string[] | null, release: () => void, deadline: SendDeadline): Promise<void> {
    await this.#records.add(await this.#send(row, secrets, release, deadline));
  }

  /** Sends one admitted delivery; never throws (a failure is a result to record). */
  async #send(row: Claimed, secrets: string[] | null, release: () => void, deadline: SendDeadline): Promise<Outcome> {
    const at = new Date();
    let result: SendResult;
    try {
      if (!secrets) {
        result = { ok: false, error: 'no_signing_secret', durationMs: 0 };
      } else {
        // the bytes sent are the bytes signed: encoded once
        const body = Buffer.from(row.body, 'utf8');
        const signatures = deliverySignatures(secrets, row.event_id, Math.floor(at.getTime() / 1000), body);
        result = await this.#deps.sender.send(row.url, body, signatures, deadline);
      }
    } finally {
      release();
    }
    const { before, after } = this.#endpoints.sent(row.environment_id, circuitKey(row), result.ok, Date.now());
    if (after === 'open' && before !== 'open') {
      publishLog(this.#deps.nc, this.#deps.subjects, row.environment_id, 'warn', 'webhook.circuit_opened', {
        url: redactWebhookUrl(row.url),
        coolDownMs: this.#deps.config.WEBHOOK_BREAKER_COOLDOWN,
      });
    } else if (after === 'closed' && before === 'half-open') {
      publishLog(this.#deps.nc, this.#deps.subjects, row.environment_id, 'info', 'webhook.circuit_closed', { url: redactWebhookUrl(row.url) });
    }
    this.#endpoints.freed(row.environment_id, Date.now());
    // 410 Gone: the receiver says the endpoint is gone for good; no retry for this delivery
    return settleAttempt(row, at, result, this.#deps.config.WEBHOOK_RETRY_SCHEDULE);
  }
}
