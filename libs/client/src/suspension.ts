import { Timer, type Clock } from './clock.ts';
import { RtmError } from './errors.ts';
import type { OutboxEntry } from './outbox.ts';

/**
 * The client's time without a connection: from the first moment it is down, `afterMs` later it
 * is suspended (retries go on; publishes reject at once) until a connection is up again.
 */
export class Suspension {
  readonly afterMs: number;
  readonly #timer: Timer;
  readonly #enter: () => void;
  #down = false;
  #suspended = false;

  /** `enter` runs when the time is up: the client decides whether to suspend (`suspend()`). */
  constructor(clock: Clock, afterMs: number, enter: () => void) {
    this.afterMs = afterMs;
    this.#timer = new Timer(clock);
    this.#enter = enter;
  }

  get suspended(): boolean {
    return this.#suspended;
  }

  /** Starts the clock when the client has just lost (or not yet had) a connection. */
  down(): void {
    if (this.#down) return;
    this.#down = true;
    this.#timer.set(this.afterMs, () => this.#enter());
  }

  suspend(): void {
    this.#suspended = true;
  }

  /** Connected, or a fresh `connect()`: the clock starts again at the next loss. */
  up(): void {
    this.#timer.clear();
    this.#down = false;
    this.#suspended = false;
  }

  /** Closed for good: no suspension pending. */
  stop(): void {
    this.#timer.clear();
  }

  /** Why a queued publish is rejected on suspension. */
  errorFor(entry: OutboxEntry): RtmError {
    return new RtmError(
      'unavailable',
      entry.sentOnce
        ? `no connection for ${this.afterMs} ms; it was sent before the connection was lost, so it may have been persisted`
        : `no connection for ${this.afterMs} ms; not sent`,
    );
  }
}
