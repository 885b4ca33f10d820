/**
 * Handshakes begin a few per event-loop turn, and only so many run at once. A burst of upgrades
 * (a thousand clients of a gateway that went away, all reconnecting at once) arrives in one poll
 * phase; begun there, every token check, quota and admission of the burst would run back to back,
 * and when their awaited reads came back together (the token checks from the thread pool, a
 * batched read) their continuations would again run as one block. Every other request of the
 * gateway (another tenant's publish, a ping) would wait behind it: hundreds of milliseconds.
 * Begun `perTurn` at a time, one turn per `setImmediate`, with at most `inFlight` unfinished, the
 * burst's work interleaves with the gateway's other I/O in small pieces. The pacer never waits
 * while it has room, so a burst still goes as fast as its handshakes' own round trips allow.
 * Order is kept: first upgraded, first begun. A handshake holds its place until it settles, or
 * `holdMs` at most (its deadline: one that hangs must not keep the gateway from taking others);
 * work that settles within its own turn (the gateway's upgrade pacing) needs no such deadline and
 * passes none, so it costs no timer.
 */
/** Handshakes begun per event-loop turn, and unfinished at once, on a gateway. */
export const HANDSHAKES_PER_TURN = 8;
export const HANDSHAKES_IN_FLIGHT = 64;

export class HandshakePacer {
  readonly #perTurn: number;
  readonly #inFlight: number;
  readonly #holdMs: number | undefined;
  #queue: (() => Promise<void>)[] = [];
  #head = 0;
  #running = 0;
  #scheduled = false;
  readonly #drain = (): void => this.#run();

  constructor(options: { perTurn: number; inFlight: number; holdMs?: number }) {
    this.#perTurn = options.perTurn;
    this.#inFlight = options.inFlight;
    this.#holdMs = options.holdMs;
  }

  /** Handshakes waiting for their turn. */
  get waiting(): number {
    return this.#queue.length - this.#head;
  }

  /** Handshakes begun and not yet finished. */
  get running(): number {
    return this.#running;
  }

  /** Begins `handshake` in a coming turn, after those pushed before it; it holds a place until it settles. */
  push(handshake: () => Promise<void>): void {
    this.#queue.push(handshake);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#running >= this.#inFlight || this.waiting === 0) return;
    this.#scheduled = true;
    setImmediate(this.#drain);
  }

  /** The place is given back once, when the handshake settles or `holdMs` (when given) has passed. */
  #hold(settled: Promise<void>): void {
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      this.#running--;
      this.#schedule();
    };
    const timer = this.#holdMs === undefined ? undefined : setTimeout(release, this.#holdMs);
    timer?.unref();
    settled.then(release, release);
  }

  #run(): void {
    this.#scheduled = false;
    for (let begun = 0; begun < this.#perTurn && this.#running < this.#inFlight && this.#head < this.#queue.length; begun++) {
      const handshake = this.#queue[this.#head]!;
      this.#queue[this.#head++] = idle;
      this.#running++;
      this.#hold(handshake());
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    this.#schedule();
  }
}

const idle = async (): Promise<void> => {};
