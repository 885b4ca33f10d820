/**
 * Deadlines of many objects on one timer: a min-heap of entries ordered by time, with a single
 * unref'd `setTimeout` armed for the earliest. Every socket has a heartbeat, most a handshake
 * deadline and a token expiry; one Node timer each costs ~200 bytes of heap per socket (the
 * `Timeout`, its closure and context) and a timer-list entry, where a heap entry is one small
 * object whose slot is reused when it is moved.
 *
 * `fire(item, kind)` runs once for each entry whose time has come, in time order, after the entry
 * has left the heap (so it may schedule it again with `set`). Entries are exact to the timer's
 * precision: the timer is re-armed for the new earliest deadline whenever it changes.
 */
import { SOCKET_CLOSE, type Closing } from '../sockets/close-codes.ts';

/** setTimeout's longest delay; a later deadline is waited for in steps. */
const MAX_DELAY = 2 ** 31 - 1;

export class Deadline<T> {
  readonly item: T;
  readonly kind: number;
  /** When it is due (ms since the epoch); meaningful while scheduled. */
  at = 0;
  /** Its place in the heap, -1 when not scheduled. */
  index = -1;

  constructor(item: T, kind: number) {
    this.item = item;
    this.kind = kind;
  }

  get scheduled(): boolean {
    return this.index !== -1;
  }
}

export class Deadlines<T> {
  readonly #heap: Deadline<T>[] = [];
  readonly #fire: (item: T, kind: number) => void;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  /** When the armed timer is due. */
  #timerAt = Infinity;
  #firing = false;
  readonly #onTimer = (): void => this.#run();

  constructor(fire: (item: T, kind: number) => void, now: () => number = Date.now) {
    this.#fire = fire;
    this.#now = now;
  }

  /** Entries scheduled now. */
  get size(): number {
    return this.#heap.length;
  }

  /** Schedules the entry at `at` (ms since the epoch), or moves it there if it is already scheduled. */
  set(entry: Deadline<T>, at: number): void {
    entry.at = at;
    if (entry.index === -1) {
      entry.index = this.#heap.length;
      this.#heap.push(entry);
      this.#up(entry.index);
    } else if (!this.#up(entry.index)) {
      this.#down(entry.index);
    }
    this.#arm();
  }

  /** Unschedules the entry (nothing if it is not scheduled). */
  clear(entry: Deadline<T>): void {
    const at = entry.index;
    if (at === -1) return;
    entry.index = -1;
    const last = this.#heap.pop()!;
    if (last !== entry) {
      this.#heap[at] = last;
      last.index = at;
      if (!this.#up(at)) this.#down(at);
    }
    this.#arm();
  }

  /** Fires every entry that is due; exposed for tests that drive time by hand. */
  runDue(): void {
    this.#run();
  }

  #run(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    this.#firing = true;
    try {
      const now = this.#now();
      while (this.#heap.length > 0 && this.#heap[0]!.at <= now) {
        const entry = this.#heap[0]!;
        this.clear(entry);
        this.#fire(entry.item, entry.kind);
      }
    } finally {
      this.#firing = false;
      this.#arm();
    }
  }

  /** Keeps the one timer armed for the earliest entry (none when there is none). */
  #arm(): void {
    if (this.#firing) return;
    const first = this.#heap[0];
    if (!first) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Infinity;
      return;
    }
    if (first.at === this.#timerAt && this.#timer) return;
    clearTimeout(this.#timer);
    this.#timerAt = first.at;
    this.#timer = setTimeout(this.#onTimer, Math.min(MAX_DELAY, Math.max(0, first.at - this.#now())));
    this.#timer.unref();
  }

  /** Moves the entry at `at` towards the root while it is earlier than its parent; true if it moved. */
  #up(at: number): boolean {
    const heap = this.#heap;
    const entry = heap[at]!;
    const from = at;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (heap[parent]!.at <= entry.at) break;
      heap[at] = heap[parent]!;
      heap[at]!.index = at;
      at = parent;
    }
    heap[at] = entry;
    entry.index = at;
    return at !== from;
  }

  #down(at: number): void {
    const heap = this.#heap;
    const entry = heap[at]!;
    const length = heap.length;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= length) break;
      if (child + 1 < length && heap[child + 1]!.at < heap[child]!.at) child++;
      if (heap[child]!.at >= entry.at) break;
      heap[at] = heap[child]!;
      heap[at]!.index = at;
      at = child;
    }
    heap[at] = entry;
    entry.index = at;
  }
}

/**
 * A link's timed rules as one entry on the process's shared timer: its heartbeat, its handshake
 * deadline and its token's expiry, whichever comes first. The socket link and the event-stream
 * link keep theirs alike; what a heartbeat does (a ping, a comment line) is theirs.
 */
export class LinkClock<T> {
  #beatAt: number;
  #handshakeAt: number;
  #expiresAt = 0;
  readonly #entry: Deadline<T>;
  readonly #deadlines: Deadlines<T>;
  readonly #beatMs: number;

  /** Scheduled at once: the first heartbeat `beatMs` from `now`, the handshake due `handshakeMs` from it. */
  constructor(deadlines: Deadlines<T>, entry: Deadline<T>, handshakeMs: number, beatMs: number, now: number = Date.now()) {
    this.#deadlines = deadlines;
    this.#entry = entry;
    this.#beatMs = beatMs;
    this.#beatAt = now + beatMs;
    this.#handshakeAt = now + handshakeMs;
    this.#schedule();
  }

  /**
   * The entry came due. A closing when a rule is broken (the token expired, else the handshake
   * took too long: the entry stays off the timer); otherwise whether a heartbeat is due now (the
   * next one is then counted from `now`), and the entry is set again.
   */
  due(now: number): Closing | boolean {
    if (this.#expiresAt !== 0 && this.#expiresAt <= now) return SOCKET_CLOSE.tokenExpired;
    if (this.#handshakeAt !== 0 && this.#handshakeAt <= now) return SOCKET_CLOSE.handshakeTimeout;
    const beat = this.#beatAt <= now;
    if (beat) this.#beatAt = now + this.#beatMs;
    this.#schedule();
    return beat;
  }

  /** The handshake is done: its deadline is lifted. */
  established(): void {
    if (this.#handshakeAt === 0) return;
    this.#handshakeAt = 0;
    this.#schedule();
  }

  /** Watches the token's expiry; false (nothing watched) when it has already come. */
  expireAt(expiresAt: Date, now: number = Date.now()): boolean {
    const at = expiresAt.getTime();
    if (at <= now) return false;
    this.#expiresAt = at;
    this.#schedule();
    return true;
  }

  /** Off the timer (the link closed). */
  clear(): void {
    this.#deadlines.clear(this.#entry);
  }

  #schedule(): void {
    let at = this.#beatAt;
    if (this.#handshakeAt !== 0 && this.#handshakeAt < at) at = this.#handshakeAt;
    if (this.#expiresAt !== 0 && this.#expiresAt < at) at = this.#expiresAt;
    this.#deadlines.set(this.#entry, at);
  }
}
