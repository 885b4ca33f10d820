/**
 * A send rate per key: a token bucket per key holding at most one second's sends (`perSecond`),
 * refilled continuously; 0 means no limit. The dispatcher keys one set by environment
 * (WEBHOOK_MAX_RATE_PER_ENDPOINT) and another by endpoint id, each endpoint with its own rate
 * (`rateLimitPerSecond`, passed with each call); only an endpoint's owner sends to it, so either
 * rate holds cluster-wide. Across a change of owner too: `emptySince` names, per key, when this
 * process took the key over (its partition); a bucket not used here since then counts as emptied
 * at that moment, as if the previous owner had just spent it, and fills from there. Without it, a
 * new owner's full bucket added a second burst on top of the previous owner's last second.
 */
export class RateBuckets {
  readonly #rate: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  /** Keys kept at most; past it the buckets start full again (a limit forgets, never over-refuses). */
  readonly #maxKeys: number;

  /** When this process took the key over (ms), if it did: its bucket starts empty then. */
  readonly #emptySince: (key: string) => number | undefined;

  constructor(perSecond: number, options: { maxKeys?: number; emptySince?: (key: string) => number | undefined } = {}) {
    this.#rate = perSecond;
    this.#maxKeys = options.maxKeys ?? 100_000;
    this.#emptySince = options.emptySince ?? (() => undefined);
  }

  get limited(): boolean {
    return this.#rate > 0;
  }

  /** Sends the key may start now (fractional; Infinity without a limit). `rate`: this key's own. */
  tokens(key: string, now: number, rate = this.#rate): number {
    if (rate <= 0) return Infinity;
    let bucket = this.#buckets.get(key);
    const since = this.#emptySince(key);
    if (since !== undefined && (!bucket || bucket.at < since)) bucket = { tokens: 0, at: since };
    if (!bucket) return rate;
    return Math.min(rate, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rate);
  }

  /** Counts one send started now. */
  take(key: string, now: number, rate = this.#rate): void {
    if (rate <= 0) return;
    this.#buckets.set(key, { tokens: this.tokens(key, now, rate) - 1, at: now });
    if (this.#buckets.size > this.#maxKeys) this.#buckets.clear();
  }

  /** When the key's next send may start (null: now, or no limit). */
  refusedUntil(key: string, now: number, rate = this.#rate): number | null {
    if (rate <= 0) return null;
    const tokens = this.tokens(key, now, rate);
    return tokens >= 1 ? null : now + Math.ceil(((1 - tokens) / rate) * 1000);
  }
}
