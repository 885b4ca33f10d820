/**
 * Where a channel subscription stands, so that each persisted message reaches the application
 * once, in seq order, across reconnects and re-subscriptions.
 *
 * A subscription asked with `rewind` (and no `since`) sends it until it has a position: once a
 * message was delivered or `subscribed` confirmed one, every later `subscribe` resumes with
 * `since`, so a reconnect never rewinds again.
 *
 * A subscription goes through two modes:
 * - replay (after a `subscribe` was sent, until `subscribed`): the server sends every persisted
 *   message with `seq > since` it lets this user see, ascending. Seqs may jump (a message
 *   addressed with `to` to someone else is not sent), so any seq above the position is delivered.
 * - live (after `subscribed`): the server's `lastSeq` is folded into the position (everything up
 *   to it has been replayed), and from then on the next persisted message must be position + 1.
 *   A seq at or below the position is a duplicate and dropped; a seq above position + 1 is a gap:
 *   the caller re-subscribes with `since = position` and lets the replay fill it.
 */
import type { Rewind } from './rewind.ts';

export type Verdict = 'deliver' | 'duplicate' | 'gap';

export class ChannelPosition {
  /** The highest seq delivered or confirmed by `subscribed`; undefined before either. */
  #position: number | undefined;
  #live = false;
  readonly #rewind: Rewind | undefined;

  constructor(since?: number, rewind?: Rewind) {
    this.#position = since;
    this.#rewind = since === undefined ? rewind : undefined;
  }

  get position(): number | undefined {
    return this.#position;
  }

  /** The `rewind` a `subscribe` sends: the one asked for, while there is no position yet. */
  get rewind(): Rewind | undefined {
    return this.#position === undefined ? this.#rewind : undefined;
  }

  get live(): boolean {
    return this.#live;
  }

  /** A `subscribe` is being sent: returns its `since` (undefined: start live, replay nothing). */
  startReplay(): number | undefined {
    this.#live = false;
    return this.#position;
  }

  /** The server's `subscribed`: the replay is over and reached `lastSeq`. */
  subscribed(lastSeq: number): void {
    this.#live = true;
    if (this.#position === undefined || lastSeq > this.#position) this.#position = lastSeq;
  }

  /** A persisted message (not ephemeral) with this seq arrived. */
  accept(seq: number): Verdict {
    const position = this.#position;
    if (position !== undefined && seq <= position) return 'duplicate';
    if (this.#live && position !== undefined && seq !== position + 1) return 'gap';
    this.#position = seq;
    return 'deliver';
  }
}

/**
 * Where an inbox subscription stands. Notification ids are time-ordered, so the highest id
 * delivered is where a re-subscription resumes (`since`); ids seen recently are remembered so
 * that none is delivered twice, even when two producers' ids arrive slightly out of order.
 */
export class InboxPosition {
  #since: string | undefined;
  readonly #seen = new Set<string>();
  readonly #limit: number;

  constructor(since?: string, limit = 2048) {
    this.#since = since;
    this.#limit = limit;
  }

  get since(): string | undefined {
    return this.#since;
  }

  /** True when the notification is new (and records it); false for one already delivered. */
  accept(id: string): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.add(id);
    if (this.#seen.size > this.#limit) {
      // a Set iterates in insertion order: forget the oldest
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    if (this.#since === undefined || id > this.#since) this.#since = id;
    return true;
  }
}
