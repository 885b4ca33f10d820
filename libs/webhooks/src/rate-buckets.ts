/**
 * A send rate per endpoint: a token bucket per key holding at most one second's sends
 * (`perSecond`), refilled continuously; 0 means no limit. The dispatcher keys it by environment
 * (one endpoint each); only an endpoint's owner sends to it, so the rate holds cluster-wide.
 */
export class RateBuckets {
  readonly #rate: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  /** Keys kept at most; past it the buckets start full again (a limit forgets, never over-refuses). */
  readonly #maxKeys: number;

  constructor(perSecond: number, options: { maxKeys?: number } = {}) {
    this.#rate = perSecond;
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  get limited(): boolean {
    return this.#rate > 0;
  }

  /** Sends the key may start now (fractional; Infinity without a limit). */
  tokens(key: string, now: number): number {
    if (this.#rate <= 0) return Infinity;
    const bucket = this.#buckets.get(key);
    if (!bucket) return this.#rate;
    return Math.min(this.#rate, bucket.tokens + ((now - bucket.at) / 1000) * this.#rate);
  }

  /** Counts one send started now. */
  take(key: string, now: number): void {
    if (this.#rate <= 0) return;
    this.#buckets.set(key, { tokens: this.tokens(key, now) - 1, at: now });
    if (this.#buckets.size > this.#maxKeys) this.#buckets.clear();
  }

  /** When the key's next send may start (null: now, or no limit). */
  refusedUntil(key: string, now: number): number | null {
    if (this.#rate <= 0) return null;
    const tokens = this.tokens(key, now);
    return tokens >= 1 ? null : now + Math.ceil(((1 - tokens) / this.#rate) * 1000);
  }
}
