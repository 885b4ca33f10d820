/**
 * What one dispatcher knows of the endpoints it owns (push-intake.ts: an endpoint's sends are made
 * by its owner only, so all of this holds cluster-wide): the sends in flight per environment and
 * endpoint (delivery/concurrency-gate.ts), each endpoint's circuit (delivery/circuit-breaker.ts)
 * and send rate (delivery/rate-buckets.ts), and when its sends last came back. From these: how
 * many deliveries an endpoint may be handed now (`room`), until when it refuses any
 * (`refusedUntil`), and whether a claimed delivery may go (`admit`).
 *
 * An endpoint of the `webhook_endpoints` table may have its own rate (`rateLimitPerSecond`), kept
 * in a bucket of its own keyed by endpoint id, on top of WEBHOOK_MAX_RATE_PER_ENDPOINT (keyed by
 * environment). The guard learns that rate from each claim (the claim returns it, so a change
 * made by PATCH holds from the next claim on): a delivery is known to be that endpoint's only
 * once claimed, so one refused by it waits in its endpoint's own queue (`endpointRoom`), not in
 * front of the environment's other endpoints' deliveries.
 *
 * When this dispatcher takes a partition (`tookOver`), both rates of its environments start from
 * an empty bucket (rate-buckets.ts' `emptySince`): the previous owner may have just spent the
 * last second's sends, so the new owner's first sends wait for the refill instead of adding a
 * burst of their own. The cost: within one second of taking a partition, a send may wait up to
 * one rate's interval.
 */
import type { DispatcherConfig } from '@rtm/config';
import { webhookPartitionOf } from '@rtm/bus';
import { CircuitBreaker, type CircuitState } from './delivery/circuit-breaker.ts';
import { ConcurrencyGate } from './delivery/concurrency-gate.ts';
import { RateBuckets } from './delivery/rate-buckets.ts';

/**
 * How long a delivery may wait for a concurrency place before it is deferred: places of sends that
 * finish quickly come back within milliseconds; those of an endpoint that hangs do not.
 */
export const GATE_WAIT_MS = 250;

type Limits = Pick<
  DispatcherConfig,
  | 'WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT'
  | 'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT'
  | 'WEBHOOK_MAX_RATE_PER_ENDPOINT'
  | 'WEBHOOK_BREAKER_THRESHOLD'
  | 'WEBHOOK_BREAKER_COOLDOWN'
>;

export class EndpointGuard {
  readonly #limit: number;
  readonly #breaker: CircuitBreaker;
  readonly #gate: ConcurrencyGate;
  /** WEBHOOK_MAX_RATE_PER_ENDPOINT: sends started per second per endpoint (environment), 0: none. */
  readonly #rates: RateBuckets;
  /** Each endpoint's own rate (`rateLimitPerSecond`), keyed by endpoint id, with the rates learned from claims. */
  readonly #endpointRates: RateBuckets;
  readonly #rateOf = new Map<string, number>();
  /** Each rate-limited endpoint's environment (its partition is its environment's). */
  readonly #environmentOf = new Map<string, string>();
  /** When this dispatcher took each partition it owns. */
  readonly #tookOverAt = new Map<number, number>();
  /** Each environment's circuit key (environment and URL) last sent to. */
  readonly #circuitOf = new Map<string, string>();
  /** When a send of each environment last ended. */
  readonly #lastFreed = new Map<string, number>();
  readonly #freed = new Set<() => void>();

  constructor(limits: Limits) {
    this.#limit = Math.min(limits.WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT, limits.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT);
    const takenAt = (environmentId: string | undefined) => (environmentId === undefined ? undefined : this.#tookOverAt.get(webhookPartitionOf(environmentId)));
    this.#rates = new RateBuckets(limits.WEBHOOK_MAX_RATE_PER_ENDPOINT, { emptySince: takenAt });
    this.#endpointRates = new RateBuckets(0, { emptySince: (endpointId) => takenAt(this.#environmentOf.get(endpointId)) });
    this.#breaker = new CircuitBreaker({ threshold: limits.WEBHOOK_BREAKER_THRESHOLD, coolDownMs: limits.WEBHOOK_BREAKER_COOLDOWN });
    this.#gate = new ConcurrencyGate({
      perEnvironment: limits.WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT,
      perHost: limits.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    });
  }

  /**
   * How many deliveries of an environment may be handed over now: its concurrency limit (per
   * environment, and per endpoint: an environment has one URL) minus its sends in flight, plus as
   * many again while its sends come back (one ended within GATE_WAIT_MS): those are claimed ahead
   * and wait briefly for a place (concurrency-gate.ts), so a busy endpoint's next sends never wait
   * for a claim's round trip, while an endpoint that hangs gets no more than its limit. 0 while its
   * circuit refuses every delivery, at most 1 (the probe) when it is half-open, 0 while that
   * probe is out.
   */
  room(environmentId: string, now = Date.now()): number {
    const inFlight = this.#gate.inFlightOf(environmentId);
    const key = this.#circuitOf.get(environmentId);
    if (key !== undefined) {
      if (this.#breaker.refusedUntil(key, now) !== null) return 0;
      if (this.#breaker.state(key, now) !== 'closed') return inFlight === 0 ? 1 : 0;
    }
    const turningOver = now - (this.#lastFreed.get(environmentId) ?? 0) <= GATE_WAIT_MS;
    const room = Math.max(0, this.#limit - inFlight + (turningOver ? this.#limit : 0));
    return this.#rates.limited ? Math.min(room, Math.floor(this.#rates.tokens(environmentId, now))) : room;
  }

  /**
   * When an environment's endpoint may take a send again for a reason other than its places: its
   * open circuit admits a probe, or its rate limit a send (null: neither refuses now).
   */
  refusedUntil(environmentId: string, now = Date.now()): number | null {
    const key = this.#circuitOf.get(environmentId);
    const circuit = key === undefined ? null : this.#breaker.refusedUntil(key, now);
    const rate = this.#rates.refusedUntil(environmentId, now);
    if (circuit === null) return rate;
    return rate === null ? circuit : Math.max(circuit, rate);
  }

  /** This dispatcher took `partition` at `now`: the rates of its environments start empty then. */
  tookOver(partition: number, now: number): void {
    this.#tookOverAt.set(partition, now);
  }

  /** Records what a claim said of an endpoint's own rate (null: none), and the endpoint's environment. */
  learn(endpointId: string, rate: number | null, environmentId: string): void {
    if (rate === null || rate <= 0) {
      this.#rateOf.delete(endpointId);
      this.#environmentOf.delete(endpointId);
    } else {
      this.#rateOf.set(endpointId, rate);
      this.#environmentOf.set(endpointId, environmentId);
      if (this.#rateOf.size > 100_000) {
        this.#rateOf.clear();
        this.#environmentOf.clear();
      }
    }
  }

  /** Whether the endpoint has a rate of its own (as last claimed): its held deliveries wait in its own queue. */
  limits(endpointId: string): boolean {
    return this.#rateOf.has(endpointId);
  }

  /** Sends the endpoint's own rate allows now (Infinity without one). */
  endpointRoom(endpointId: string, now = Date.now()): number {
    const rate = this.#rateOf.get(endpointId);
    return rate === undefined ? Infinity : Math.floor(this.#endpointRates.tokens(endpointId, now, rate));
  }

  /** When the endpoint's own rate admits a send again (null: now, or no rate of its own). */
  endpointRefusedUntil(endpointId: string, now = Date.now()): number | null {
    const rate = this.#rateOf.get(endpointId);
    return rate === undefined ? null : this.#endpointRates.refusedUntil(endpointId, now, rate);
  }

  /** Called whenever a send ends and gives its concurrency place back. */
  onFreed(listener: () => void): void {
    this.#freed.add(listener);
  }

  /**
   * Whether a claimed delivery may be attempted now: its environment's rate, its endpoint's own
   * rate (`endpoint`: its id and rate as claimed; none for the default endpoint), then its circuit
   * (`probe`: it is the circuit's trial attempt; a send it counts against both rates).
   */
  admit(
    environmentId: string,
    circuitKey: string,
    now: number,
    endpoint?: { id: string; rate: number | null },
  ): { ok: true; probe: boolean } | { ok: false; retryAt: number; reason: 'rate' | 'endpoint_rate' | 'circuit_open' } {
    const rateAt = this.#rates.refusedUntil(environmentId, now);
    if (rateAt !== null) return { ok: false, retryAt: rateAt, reason: 'rate' };
    if (endpoint) {
      this.learn(endpoint.id, endpoint.rate, environmentId);
      const endpointAt = this.endpointRefusedUntil(endpoint.id, now);
      if (endpointAt !== null) return { ok: false, retryAt: endpointAt, reason: 'endpoint_rate' };
    }
    const admission = this.#breaker.admit(circuitKey, now);
    if (!admission.ok) return { ok: false, retryAt: admission.retryAt, reason: 'circuit_open' };
    this.#rates.take(environmentId, now);
    if (endpoint && endpoint.rate !== null) this.#endpointRates.take(endpoint.id, now, endpoint.rate);
    return { ok: true, probe: admission.probe };
  }

  /** A place for one send of `environmentId` to `endpoint`, waiting up to GATE_WAIT_MS (concurrency-gate.ts). */
  acquire(environmentId: string, endpoint: string): Promise<(() => void) | null> {
    return this.#gate.acquire(environmentId, endpoint, GATE_WAIT_MS);
  }

  /** The place at once when one is free and nobody waits for it (no promise); null otherwise: then `acquire`. */
  acquireNow(environmentId: string, endpoint: string): (() => void) | null {
    return this.#gate.acquireNow(environmentId, endpoint);
  }

  /** A probe that could not go gives its turn back: the circuit may let the next one probe. */
  abandon(circuitKey: string, now: number): void {
    this.#breaker.abandon(circuitKey, now);
  }

  /** A send to `circuitKey` ended: its circuit counts it; the circuit's state before and after. */
  sent(environmentId: string, circuitKey: string, ok: boolean, now: number): { before: CircuitState; after: CircuitState } {
    this.#circuitOf.set(environmentId, circuitKey);
    if (this.#circuitOf.size > 100_000) this.#circuitOf.clear();
    const before = this.#breaker.state(circuitKey, now);
    return { before, after: this.#breaker.record(circuitKey, ok, now) };
  }

  /** A send's place came back: what waited for the endpoint may go (the `onFreed` listeners). */
  freed(environmentId: string, now: number): void {
    this.#lastFreed.set(environmentId, now);
    if (this.#lastFreed.size > 100_000) this.#lastFreed.clear();
    for (const listener of this.#freed) listener();
  }
}
