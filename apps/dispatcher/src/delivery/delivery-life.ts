/**
 * A delivery's life, in the order it is lived: one chunk of deliveries (deliverer.ts cuts a
 * batch into chunks) from their lease to their record. Each step is one method below, in this
 * order:
 *
 *   1. claim (or notice)  #claim      leased to this dispatcher: a row its commit's notice carried
 *                                     goes unclaimed under the commit's lease, any other is claimed
 *                                     (chunk-leases.ts, the SQL in delivery-leases.ts)
 *   2. admit              #admit      its endpoint may take it now: enabled, signing secret readable,
 *                                     rates and circuit (endpoint-guard.ts); then a concurrency place
 *                                     for its environment and host, at once or after a short wait
 *   3. sign               #sign       its signature headers, over the bytes that are sent
 *   4. send               #send       one HTTP attempt (send-webhook.ts); a failure is a result
 *   5. settle             #settle     the endpoint's circuit counts the result and its place is freed;
 *                                     the outcome: delivered, pending with the wait of the retry
 *                                     schedule, or dropped (attempt-outcome.ts)
 *   6. record             #record     the attempt row and the delivery's new state, group-committed
 *                                     and fenced by the lease (attempt-records.ts)
 *   7. retry or drop                  the record's own statement puts a pending delivery's
 *                                     `deliver_webhook` job at its `next_attempt_at`, or leaves it
 *                                     dropped with its `delivery.dropped` event (RECORD_SQL);
 *                      #putBack       one not admitted is retried without an attempt: back into the
 *                                     owner's memory, or deferred in the ledger with its job
 *
 * `#attempt` is steps 3 to 6 for one admitted delivery; `live` runs a chunk through them all.
 * Per delivery the hot path is one claim row (or none), one send and one record row, each claim
 * and record shared with every other delivery that gathered meanwhile (statement-batcher.ts).
 */
import type { DispatcherConfig } from '@rtm/config';
import { publishLog, type NatsConnection, type Subjects } from '@rtm/bus';
import { redactWebhookUrl } from '@rtm/webhooks';
import type { Logger } from '@rtm/ops';
import type { ClaimedDelivery } from './delivery-leases.ts';
import { deliverySignatures } from './delivery-headers.ts';
import { SendDeadline, type WebhookSender, type SendResult } from '../send-webhook.ts';
import type { AttemptRecords } from '../attempt-records.ts';
import type { EndpointGuard } from '../endpoint-guard.ts';
import { circuitKey, endpointOf, settleAttempt, type Outcome } from '../attempt-outcome.ts';
import type { SigningSecrets } from '../signing-secrets.ts';
import type { HeldRow } from '../pushed-rows.ts';
import type { LogPositions } from '../log-positions.ts';
import { WAITS_IN_LEDGER, type ChunkLeases, type Deferral } from '../chunk-leases.ts';

/** A delivery deferred by the concurrency limits is looked at again after 1–2 s. */
const DEFER_MS = 1_000;
const DEFER_JITTER_MS = 1_000;
/**
 * A delivery of a disabled endpoint is looked at again after this long: enabling the endpoint (or
 * deploying a webhook URL after none, for the default one) makes its waiting deliveries due at
 * once, so this only bounds the cost of a backlog that waits, one deferral per delivery an hour.
 */
const DISABLED_WAIT_MS = 3_600_000;

type Claimed = ClaimedDelivery;

/** Where a chunk goes back to when it came from the owner's memory queues (push-intake.ts). */
export type Requeue = (ids: string[], endpointId?: string) => void;

export interface DeliveryLifeDeps {
  nc: NatsConnection;
  subjects: Subjects;
  config: DispatcherConfig;
  log: Logger;
  sender: WebhookSender;
  /** The owned endpoints' places, circuits and rates (shared with push-intake.ts). */
  endpoints: EndpointGuard;
  /** The deliveries of the log held (shared with push-intake.ts). */
  logged?: LogPositions;
  leases: ChunkLeases;
  records: AttemptRecords;
  secrets: SigningSecrets;
}

export class DeliveryLife {
  readonly #deps: DeliveryLifeDeps;
  readonly #endpoints: EndpointGuard;
  readonly #leases: ChunkLeases;
  readonly #records: AttemptRecords;

  constructor(deps: DeliveryLifeDeps) {
    this.#deps = deps;
    this.#endpoints = deps.endpoints;
    this.#leases = deps.leases;
    this.#records = deps.records;
  }

  /**
   * A chunk's deliveries through their life: claimed, admitted (or put back), and each admitted
   * one sent and recorded. Resolves once every delivery of the chunk is sent off or put back;
   * `recorded` settles when the last of its sends is recorded.
   *
   * `sending` is called once every send of the chunk holds its concurrency place (or was put
   * back). `requeue`: the chunk came from the owner's memory queues (push-intake.ts). A delivery
   * of it that finds its endpoint without room after all (claimed ahead while the endpoint's
   * sends were coming back, and they did not within GATE_WAIT_MS; or its circuit opened or rate
   * ran out meanwhile) goes back to that queue with its lease released, instead of being
   * deferred through Postgres: it waits in memory for its endpoint like the rest.
   */
  async live(chunk: readonly string[], sending?: () => void, requeue?: Requeue): Promise<{ recorded: Promise<unknown> }> {
    // 1. claim (or notice)
    const { claimed, held, deadline } = await this.#claim(chunk);
    const deferrals: Deferral[] = [];
    // each send is recorded as soon as it ends, together with whatever else ended meanwhile
    // (one statement for many chunks' sends: attempt-records.ts)
    const recorded: Promise<void>[] = [];
    const waits: Promise<void>[] = [];
    for (const row of claimed) {
      // 2. admit
      const admitted = this.#admit(row);
      if ('until' in admitted) {
        deferrals.push(admitted);
        continue;
      }
      // a place for its environment and host: at once (the common case, no promise), or after a
      // short wait (concurrency-gate.ts)
      const endpoint = endpointOf(row);
      const now = this.#endpoints.acquireNow(row.environment_id, endpoint);
      if (now) {
        // 3 to 6: sign, send, settle, record
        recorded.push(this.#attempt(row, admitted.secrets, now, deadline));
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
          recorded.push(this.#attempt(row, admitted.secrets, release, deadline));
        }),
      );
    }
    if (waits.length > 0) await Promise.all(waits);
    sending?.();
    const all = Promise.all(recorded).finally(() => deadline.clear());
    // 7. retry or drop: those not admitted are retried without an attempt
    await this.#putBack(deferrals, held, requeue);
    return { recorded: all };
  }

  /** Steps 3 to 6 for one admitted delivery: sign, send, settle, record. */
  async #attempt(row: Claimed, secrets: string[] | null, release: () => void, deadline: SendDeadline): Promise<void> {
    const at = new Date();
    let result: SendResult;
    try {
      if (!secrets) {
        result = { ok: false, error: 'no_signing_secret', durationMs: 0 };
      } else {
        // the bytes sent are the bytes signed: encoded once
        const body = Buffer.from(row.body, 'utf8');
        result = await this.#send(row, body, this.#sign(row, secrets, body, at), deadline);
      }
    } finally {
      release();
    }
    await this.#record(this.#settle(row, at, result));
  }

  /**
   * 1. The chunk's deliveries, leased to this dispatcher (chunk-leases.ts `take`), and one
   * deadline for the chunk, counted from the claim: every send ends within the timeout, inside
   * the lease (and a late record is fenced off by the lease anyway). Those it could not lease get
   * their job at the time their row says.
   */
  async #claim(chunk: readonly string[]): Promise<{ claimed: Claimed[]; held: Map<string, HeldRow>; deadline: SendDeadline }> {
    const { rows: claimed, held } = await this.#leases.take(chunk);
    const deadline = new SendDeadline(this.#deps.config.WEBHOOK_TIMEOUT_MS);
    if (claimed.length < chunk.length) {
      const got = new Set(claimed.map((row) => row.id));
      const missing = chunk.filter((id) => !got.has(id));
      // a delivery of the log whose row is not held (withdrawn, or let go) has no ledger row to
      // claim: let go, the next read of the log finds it if it still has no outcome
      this.#deps.logged?.forget(missing);
      await this.#leases.reschedule(missing);
    }
    return { claimed, held, deadline };
  }

  /**
   * 2. Whether a claimed delivery may be attempted: its signing secrets readable and its
   * endpoint's circuit admitting it (`probe`: it is the circuit's trial attempt). Otherwise a
   * deferral. The concurrency places are taken by the caller (`live`).
   */
  #admit(row: Claimed): Deferral | { secrets: string[] | null; probe: boolean } {
    const now = Date.now();
    // disabled since it was recorded (or the configuration has no URL now): no send; it waits in
    // the ledger, not an attempt, until enabling it queues it again (or DISABLED_WAIT_MS passes)
    if (row.target_url === null) return { row, until: now + DISABLED_WAIT_MS, reason: 'endpoint_disabled' };
    let secrets: string[] | null;
    try {
      secrets = this.#deps.secrets.of(row, now);
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

  /** 3. The signature headers of one attempt started `at`, over `body` (delivery-headers.ts). */
  #sign(row: Claimed, secrets: string[], body: Buffer, at: Date): string[] {
    return deliverySignatures(secrets, row.event_id, Math.floor(at.getTime() / 1000), body);
  }

  /** 4. One HTTP attempt within the chunk's deadline; never rejects (a failure is a result). */
  #send(row: Claimed, body: Buffer, signatures: string[], deadline: SendDeadline): Promise<SendResult> {
    return this.#deps.sender.send(row.url, body, signatures, deadline);
  }

  /**
   * 5. The result counted by the endpoint's circuit (an opening or closing told to the live log)
   * and its place freed; then the outcome: delivered, pending until the next step of the retry
   * schedule, or dropped (the schedule used up, or 410 Gone: the receiver says the endpoint is
   * gone for good, no retry for this delivery).
   */
  #settle(row: Claimed, at: Date, result: SendResult): Outcome {
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
    return settleAttempt(row, at, result, this.#deps.config.WEBHOOK_RETRY_SCHEDULE);
  }

  /**
   * 6 and 7. The outcome recorded with the others that end meanwhile (attempt-records.ts): the
   * attempt row, the new state and, in the same statement, the retry's job or the drop.
   */
  #record(outcome: Outcome): Promise<void> {
    return this.#records.add(outcome);
  }

  /**
   * 7, for deliveries not admitted: retried without an attempt, `attempts` untouched. From the
   * owner's memory (`requeue`), back into it with the lease released, unless it waits in the
   * ledger (disabled endpoint, unreadable secret); otherwise deferred: the lease released,
   * `next_attempt_at` and its keyed job at the deferral's time.
   */
  async #putBack(deferrals: readonly Deferral[], held: ReadonlyMap<string, HeldRow>, requeue?: Requeue): Promise<void> {
    if (requeue) {
      const back = deferrals.filter((d) => !WAITS_IN_LEDGER.has(d.reason));
      if (back.length > 0) {
        await this.#leases.release(
          back.map((d) => d.row),
          held,
        );
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
  }
}
