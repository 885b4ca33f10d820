/**
 * The gate every password hash of a process goes through: at most `concurrency` hashes at once,
 * and behind them two bounded queues, served in order of priority:
 * - `first`: sign-ins from a client address with no recent failed sign-in. An attacker gets one
 *   such check per address (per IPv6 /64) per window, so keeping this queue full takes a fresh
 *   address for every check; the owner's right password from a clean address waits here;
 * - `ordinary`: everything else (addresses with failures, new and re-hashed passwords).
 * A full queue refuses at once (HashingBusyError) rather than queueing without end.
 */

export type HashLane = 'first' | 'ordinary';

/** Hashing is saturated: too many password checks at once in this process. */
export class HashingBusyError extends Error {
  override name = 'HashingBusyError';
}

export class HashGate {
  private running = 0;
  private readonly waiting: Record<HashLane, (() => void)[]> = { first: [], ordinary: [] };
  private readonly concurrency: number;
  private readonly queueLimit: number;

  constructor(concurrency: number, queueLimit: number) {
    this.concurrency = concurrency;
    this.queueLimit = queueLimit;
  }

  /** Whether a check in `lane` would be refused right now. */
  full(lane: HashLane): boolean {
    return this.running >= this.concurrency && this.waiting[lane].length >= this.queueLimit;
  }

  async run<T>(fn: () => Promise<T>, lane: HashLane = 'ordinary'): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting[lane].length >= this.queueLimit) throw new HashingBusyError('too many password checks at once');
      await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await fn();
    } finally {
      const next = this.waiting.first.shift() ?? this.waiting.ordinary.shift();
      // the slot passes straight to the next waiter; `running` only drops when nobody waits
      if (next) next();
      else this.running -= 1;
    }
  }
}
