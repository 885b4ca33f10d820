/**
 * One circuit per endpoint (environment + URL), per dispatcher: an endpoint that keeps failing
 * stops taking attempts (and worker slots) for a while, instead of failing every delivery of its
 * environment through the whole retry schedule. Pure: time is passed in.
 *
 * States and transitions:
 *   closed     --success---------------------------------> closed (failures = 0)
 *   closed     --failure, consecutive failures < K-------> closed (failures + 1)
 *   closed     --failure, the K-th in a row--------------> open (until now + cool-down)
 *   open       --admit before the cool-down ends---------> open (refused: reschedule at `retryAt`)
 *   open       --admit after the cool-down---------------> half-open (this one delivery is the probe)
 *   half-open  --admit while the probe is out------------> half-open (refused: reschedule)
 *   half-open  --probe succeeds--------------------------> closed (failures = 0)
 *   half-open  --probe fails-----------------------------> open (until now + cool-down)
 *   half-open  --probe outlives the cool-down (its result lost)--> another probe may go
 *   half-open  --probe not sent after all (abandon)-------> open, probe may go at once
 *
 * A refused delivery is not an attempt: it is rescheduled without touching its attempt count.
 * Circuits that are closed with no failures are forgotten, so the map holds only endpoints
 * that are failing.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

export type Admission = { ok: true; probe: boolean } | { ok: false; retryAt: number };

export interface CircuitBreakerOptions {
  /** Consecutive failures that open a circuit (K). */
  threshold: number;
  /** How long a circuit stays open before one probe may go (ms). */
  coolDownMs: number;
}

interface Circuit {
  failures: number;
  state: CircuitState;
  /** open: when a probe may go; half-open: when the probe is given up for lost. */
  until: number;
}

export class CircuitBreaker {
  readonly #options: CircuitBreakerOptions;
  readonly #circuits = new Map<string, Circuit>();

  constructor(options: CircuitBreakerOptions) {
    this.#options = options;
  }

  state(key: string, now: number): CircuitState {
    const circuit = this.#circuits.get(key);
    if (!circuit) return 'closed';
    if (circuit.state === 'open' && now >= circuit.until) return 'half-open';
    return circuit.state;
  }

  /** Until when `key`'s open circuit refuses every delivery (null: it admits one now, at least a probe). */
  refusedUntil(key: string, now: number): number | null {
    const circuit = this.#circuits.get(key);
    if (!circuit || circuit.state === 'closed' || now >= circuit.until) return null;
    return circuit.until;
  }

  /** May a delivery to `key` be attempted now? */
  admit(key: string, now: number): Admission {
    const circuit = this.#circuits.get(key);
    if (!circuit || circuit.state === 'closed') return { ok: true, probe: false };
    if (now < circuit.until) return { ok: false, retryAt: circuit.until };
    // open and cooled down, or a half-open probe given up for lost: this one is the probe
    circuit.state = 'half-open';
    circuit.until = now + this.#options.coolDownMs;
    return { ok: true, probe: true };
  }

  /** The result of an admitted attempt. Returns the state it leaves the circuit in. */
  record(key: string, ok: boolean, now: number): CircuitState {
    if (ok) {
      this.#circuits.delete(key);
      return 'closed';
    }
    const circuit = this.#circuits.get(key) ?? { failures: 0, state: 'closed' as CircuitState, until: 0 };
    circuit.failures += 1;
    if (circuit.state === 'half-open' || circuit.failures >= this.#options.threshold) {
      circuit.state = 'open';
      circuit.until = now + this.#options.coolDownMs;
    }
    this.#circuits.set(key, circuit);
    return circuit.state;
  }

  /** An admitted probe that was not sent (e.g. deferred by a concurrency limit): the next delivery may probe. */
  abandon(key: string, now: number): void {
    const circuit = this.#circuits.get(key);
    if (circuit?.state !== 'half-open') return;
    circuit.state = 'open';
    circuit.until = now;
  }

  /** Endpoints with a circuit that is not closed (for metrics). */
  openCount(now: number): number {
    let n = 0;
    for (const key of this.#circuits.keys()) if (this.state(key, now) !== 'closed') n++;
    return n;
  }
}
