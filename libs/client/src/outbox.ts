import { RtmError } from './errors.ts';

/**
 * Publishes, retractions, edits and reactions waiting for their `ack`, in the order they were made.
 *
 * Every publish carries an idempotency key, so sending it again after a lost connection (the first
 * send may or may not have been committed) creates the message at most once; retractions and
 * reactions are idempotent on the server (reacting again, or taking back a reaction twice, changes
 * nothing). An entry is `queued` (to be sent when connected and not paused) or `sent` (a frame with
 * its current `ref` is on the wire). Losing the connection turns every `sent` entry back into
 * `queued`, except those sent at most once (`atMostOnce`): ephemeral publishes (no key, live-only)
 * and edits (each one makes a new version), whose fate is unknown, are rejected rather than
 * possibly done twice.
 *
 * The outbox holds at most `limit` entries that are not on an open connection (queued while
 * offline or paused); past it a new entry is refused with `queue_full` (the SDK's own code: nothing reached the server).
 */
/** What an entry asks of the server (its frame's `op`). */
export type OutboxKind = 'publish' | 'retract' | 'edit' | 'react' | 'unreact';

export interface OutboxEntry<Result = unknown> {
  kind: OutboxKind;
  channelId: string;
  /** The frame without `ref` (set on each send). */
  frame: Record<string, unknown>;
  ephemeral: boolean;
  state: 'queued' | 'sent';
  ref: number | undefined;
  /** It has been on the wire at least once (so a lost connection leaves its outcome unknown). */
  sentOnce: boolean;
  /** How often the server refused it with a retryable error (rate_limited, unavailable). */
  refusals: number;
  resolve(result: Result): void;
  reject(error: RtmError): void;
}

/** An entry that is never sent twice when its first send's outcome is unknown: an ephemeral publish, an edit. */
export function atMostOnce(entry: Pick<OutboxEntry, 'kind' | 'ephemeral'>): boolean {
  return entry.ephemeral || entry.kind === 'edit';
}

/** Retryable refusals of one entry before its promise is rejected with the last one. */
export const MAX_REFUSALS = 8;

export class Outbox {
  readonly #entries: OutboxEntry[] = [];
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Entries not on an open connection. */
  get held(): number {
    return this.#entries.filter((entry) => entry.state === 'queued').length;
  }

  entries(): readonly OutboxEntry[] {
    return this.#entries;
  }

  /**
   * Adds an entry. `online` says whether it can go out at once; when it cannot, the entry counts
   * against the limit and is refused past it.
   */
  add<Result>(entry: Omit<OutboxEntry<Result>, 'state' | 'ref' | 'refusals' | 'sentOnce'>, online: boolean): OutboxEntry<Result> {
    if (!online && this.held >= this.#limit) {
      throw new RtmError('queue_full', `${this.#limit} publishes are already waiting for a connection (maxQueuedPublishes)`);
    }
    const full: OutboxEntry<Result> = { ...entry, state: 'queued', ref: undefined, refusals: 0, sentOnce: false };
    this.#entries.push(full as OutboxEntry);
    return full;
  }

  /** The queued entries, oldest first, each marked `sent` with a ref from `nextRef`. */
  takeQueued(nextRef: () => number): OutboxEntry[] {
    const taken: OutboxEntry[] = [];
    for (const entry of this.#entries) {
      if (entry.state !== 'queued') continue;
      entry.state = 'sent';
      entry.sentOnce = true;
      entry.ref = nextRef();
      taken.push(entry);
    }
    return taken;
  }

  /** The sent entry answered by `ref`, if any. */
  bySentRef(ref: unknown): OutboxEntry | undefined {
    return this.#entries.find((entry) => entry.state === 'sent' && entry.ref === ref);
  }

  /** Removes an answered entry. */
  remove(entry: OutboxEntry): void {
    const index = this.#entries.indexOf(entry);
    if (index >= 0) this.#entries.splice(index, 1);
  }

  /**
   * A retryable refusal (rate_limited, or unavailable: the outcome is unknown and the same key
   * makes a retry safe): the entry goes back to `queued` in its place, unless it has been refused
   * MAX_REFUSALS times, or it is sent at most once and its outcome is unknown (anything but a
   * rate limit), in which case it is removed and rejected. True when it will be retried.
   */
  requeue(entry: OutboxEntry, error: RtmError): boolean {
    entry.refusals += 1;
    if (entry.refusals >= MAX_REFUSALS || (atMostOnce(entry) && error.code !== 'rate_limited')) {
      this.remove(entry);
      entry.reject(error);
      return false;
    }
    entry.state = 'queued';
    entry.ref = undefined;
    return true;
  }

  /** The connection is gone: sent entries are queued again (those sent at most once are rejected). */
  connectionLost(): void {
    for (const entry of [...this.#entries]) {
      if (entry.state !== 'sent') continue;
      if (atMostOnce(entry)) {
        this.remove(entry);
        const what = entry.ephemeral ? 'the ephemeral message was acknowledged' : 'the edit was acknowledged: it may or may not have been made';
        entry.reject(new RtmError('unavailable', `the connection was lost before ${what}`));
        continue;
      }
      entry.state = 'queued';
      entry.ref = undefined;
    }
  }

  /** Rejects and removes every entry. */
  rejectAll(error: (entry: OutboxEntry) => RtmError): void {
    const all = this.#entries.splice(0, this.#entries.length);
    for (const entry of all) entry.reject(error(entry));
  }
}
