/**
 * Where a channel subscription stands, so that each persisted message and each change of one
 * reaches the application once, in order, across reconnects and re-subscriptions.
 *
 * The channel has one sequence: every persisted message takes the next seq (its `seq`), and so does
 * every change of a message (an edit, a reactions summary, a retraction: its `eventSeq`; the
 * message keeps its own `seq`). The position is the highest place of that sequence seen: a
 * message's `seq`, a `skip`'s `seq` (a place with nothing for this user), a change's `eventSeq`.
 * A re-subscription sends it as `since`: the server replays the messages above it and, once each,
 * the older messages changed since (as they are now).
 *
 * A subscription asked with `rewind` (and no `since`) sends it until it has a position: once a
 * message was delivered or `subscribed` confirmed one, every later `subscribe` resumes with
 * `since`, so a reconnect never rewinds again.
 *
 * A subscription goes through two modes:
 * - replay (after a `subscribe` was sent, until `subscribed`): the server sends the places above
 *   `since` it has for this user, ascending. They may jump (a message addressed with `to` to
 *   someone else is not sent, a change superseded since is not replayed), so any place above the
 *   position is delivered.
 * - live (after `subscribed`): the server's `lastSeq` is folded into the position (everything up
 *   to it has been replayed), and from then on the next place must be position + 1. A place at or
 *   below the position is a duplicate and dropped; one above position + 1 is a gap: the caller
 *   re-subscribes with `since = position` and lets the replay fill it.
 */
import type { Rewind } from './rewind.ts';

export type Verdict = 'deliver' | 'duplicate' | 'gap';

export class ChannelPosition {
  /** The highest place delivered or confirmed by `subscribed`; undefined before either. */
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

  /** A place of the channel's sequence arrived: a persisted message's seq, a skip's seq, a change's eventSeq. */
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

/**
 * The highest content version seen of recently changed messages, so that an `update` that arrives
 * after a newer version of its message (a resume's replay reads messages as they are at that moment,
 * and the live edits that follow may be older) is recognised as late. Only versions from 2 are kept
 * (an absent version is 1), the most recently seen `limit` of them.
 */
export class VersionBook {
  readonly #versions = new Map<string, number>();
  readonly #limit: number;

  constructor(limit = 2048) {
    this.#limit = limit;
  }

  /** Records `version` of message `id`; false when it is older than one seen before (a late update, to be ignored). */
  accept(id: string, version: number | undefined): boolean {
    const held = this.#versions.get(id);
    const seen = version ?? 1;
    if (held !== undefined && seen < held) return false;
    if (seen > 1) {
      // a Map iterates in insertion order: re-inserting keeps the recently seen at the end
      this.#versions.delete(id);
      this.#versions.set(id, seen);
      if (this.#versions.size > this.#limit) {
        const oldest = this.#versions.keys().next().value;
        if (oldest !== undefined) this.#versions.delete(oldest);
      }
    }
    return true;
  }

  /** A retracted message has no versions left. */
  forget(id: string): void {
    this.#versions.delete(id);
  }
}
