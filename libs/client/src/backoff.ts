/**
 * Exponential backoff with full jitter: the n-th retry (n = 0, 1, …) waits a uniformly random time
 * in [0, min(maxMs, initialMs · 2^n)]. Spreading retries over the whole window (rather than around
 * its end) is what keeps thousands of clients cut off at the same moment from coming back at the
 * same moment.
 */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = backoffCeiling(attempt, initialMs, maxMs);
  return Math.floor(random() * (ceiling + 1));
}

/** The upper bound of the n-th retry's delay. */
export function backoffCeiling(attempt: number, initialMs: number, maxMs: number): number {
  // 2^30 is already past any sensible maximum; capping the exponent keeps the product finite
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(maxMs, initialMs * 2 ** exponent);
}

/** Attempts counted by a user of backoffDelay: `next()` gives the next delay, `reset()` starts over. */
export class Backoff {
  #attempt = 0;
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #random: () => number;

  constructor(initialMs: number, maxMs: number, random: () => number = Math.random) {
    this.#initialMs = initialMs;
    this.#maxMs = maxMs;
    this.#random = random;
  }

  get attempt(): number {
    return this.#attempt;
  }

  next(): number {
    return backoffDelay(this.#attempt++, this.#initialMs, this.#maxMs, this.#random);
  }

  reset(): void {
    this.#attempt = 0;
  }
}
