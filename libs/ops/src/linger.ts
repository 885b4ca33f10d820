/**
 * When a group (a commit of several publishes, a bus request carrying several commands) should
 * wait a moment for more before it goes: Nagle's rule, or Kafka's `linger.ms`, made load-aware.
 *
 * A group that goes with few items costs nearly as much as a full one (a transaction's round
 * trips and WAL flush, a bus message's writes and wake-ups), so under load it pays to wait a
 * fraction of a millisecond for the items that are about to arrive. At rest it never pays: the
 * wait would be pure latency. So:
 * - a group that already holds `fill` items goes at once;
 * - otherwise it waits only when at least one more item is expected within `maxMs` (the recent
 *   arrival rate × `maxMs` ≥ 1), and no longer than filling it is expected to take, nor than
 *   `maxMs`;
 * - `maxMs` 0 turns waiting off.
 * The rate is an exponentially decaying average over about `windowMs` (ArrivalRate), so a burst
 * that ended stops causing waits within a few windows.
 */

export interface LingerOptions {
  /** Items at which a group goes at once. */
  fill: number;
  /** The longest a group waits for more (milliseconds; 0: never). */
  maxMs: number;
}

/** How long a group holding `waiting` items should wait for more, given `ratePerMs` arrivals per millisecond (0: go now). */
export function lingerMs(waiting: number, ratePerMs: number, options: LingerOptions): number {
  if (options.maxMs <= 0 || waiting >= options.fill || !(ratePerMs > 0)) return 0;
  // few in flight: not even one more is expected within the bound
  if (ratePerMs * options.maxMs < 1) return 0;
  return Math.min(options.maxMs, (options.fill - waiting) / ratePerMs);
}

/** Arrivals per millisecond, an exponentially decaying average with time constant `windowMs`. */
export class ArrivalRate {
  readonly #windowMs: number;
  #rate = 0;
  #at = 0;

  constructor(windowMs = 20) {
    this.#windowMs = windowMs;
  }

  /** `count` items arrived at `now` (milliseconds, a monotonic clock such as performance.now()). */
  add(count: number, now: number): void {
    this.#rate = this.perMs(now) + count / this.#windowMs;
    this.#at = now;
  }

  perMs(now: number): number {
    const elapsed = now - this.#at;
    return elapsed <= 0 ? this.#rate : this.#rate * Math.exp(-elapsed / this.#windowMs);
  }
}
