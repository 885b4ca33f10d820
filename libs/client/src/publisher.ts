import { backoffDelay } from './backoff.ts';
import { Timer, type Clock } from './clock.ts';
import { RtmError } from './errors.ts';
import { Outbox, type OutboxEntry, type OutboxKind } from './outbox.ts';
import type { Suspension } from './suspension.ts';

/** What the publish queue needs from the client. */
export interface PublisherHost {
  isConnected(): boolean;
  isClosed(): boolean;
  nextRef(): number;
  send(frame: Record<string, unknown>): void;
}

/**
 * Publishes, retractions, edits and reactions on their way: queued while offline (outbox.ts), sent in order when
 * connected, resolved by their `ack`. A refusal that is safe to retry goes back in the queue: a
 * rate limit pauses sending for its `retryAfter`; `unavailable` (the outcome is unknown, and the
 * same idempotency key makes a repeat safe) retries with backoff. Any other refusal rejects.
 */
export class Publisher {
  readonly #outbox: Outbox;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #retry: { initialMs: number; maxMs: number };
  readonly #suspension: Pick<Suspension, 'suspended' | 'afterMs'>;
  readonly #host: PublisherHost;
  readonly #flushTimer: Timer;
  #pausedUntil = 0;

  constructor(options: {
    maxQueued: number;
    clock: Clock;
    random: () => number;
    retry: { initialMs: number; maxMs: number };
    /** Suspended (no connection for `afterMs`): publishes reject at once. */
    suspension: Pick<Suspension, 'suspended' | 'afterMs'>;
    host: PublisherHost;
  }) {
    this.#outbox = new Outbox(options.maxQueued);
    this.#clock = options.clock;
    this.#random = options.random;
    this.#retry = options.retry;
    this.#suspension = options.suspension;
    this.#host = options.host;
    this.#flushTimer = new Timer(options.clock);
  }

  enqueue<Result>(kind: OutboxKind, channelId: string, frame: Record<string, unknown>, ephemeral: boolean): Promise<Result> {
    if (this.#host.isClosed()) return Promise.reject(new RtmError('closed', 'the client is closed'));
    if (this.#suspension.suspended) {
      return Promise.reject(new RtmError('unavailable', `suspended: no connection for more than ${this.#suspension.afterMs} ms`));
    }
    return new Promise<Result>((resolve, reject) => {
      const online = this.#host.isConnected() && this.#clock.now() >= this.#pausedUntil;
      try {
        this.#outbox.add<Result>({ kind, channelId, frame, ephemeral, resolve, reject }, online);
      } catch (error) {
        reject(error);
        return;
      }
      this.flush();
    });
  }

  /** Sends every queued publish, oldest first, unless a rate limit asked to pause. */
  flush(): void {
    if (!this.#host.isConnected()) return;
    const wait = this.#pausedUntil - this.#clock.now();
    if (wait > 0) {
      if (!this.#flushTimer.pending) this.#flushTimer.set(wait, () => this.flush());
      return;
    }
    for (const entry of this.#outbox.takeQueued(() => this.#host.nextRef())) {
      this.#host.send({ ...entry.frame, ref: entry.ref });
    }
  }

  onAck(frame: Record<string, unknown>): void {
    const entry = this.#outbox.bySentRef(frame.ref);
    if (!entry) return;
    this.#outbox.remove(entry);
    entry.resolve(ackResult(entry, frame));
  }

  /** An `error` frame: true when it answered one of the queue's requests (handled here). */
  onError(ref: unknown, error: RtmError): boolean {
    const entry = this.#outbox.bySentRef(ref);
    if (!entry) return false;
    this.#refused(entry, error);
    return true;
  }

  /** What was sent on the lost connection is queued again (outbox.ts decides what is safe). */
  connectionLost(): void {
    this.#flushTimer.clear();
    this.#outbox.connectionLost();
  }

  rejectAll(errorOf: (entry: OutboxEntry) => RtmError): void {
    this.#outbox.rejectAll(errorOf);
  }

  #refused(entry: OutboxEntry, error: RtmError): void {
    if (error.code === 'rate_limited') {
      this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + (error.retryAfter ?? 1) * 1000);
      if (this.#outbox.requeue(entry, error)) this.flush();
      return;
    }
    if (error.code === 'unavailable') {
      // the owner did not answer in time: the outcome is unknown, and the same key makes a retry safe
      if (this.#outbox.requeue(entry, error)) {
        const delay = Math.max((error.retryAfter ?? 0) * 1000, backoffDelay(entry.refusals, this.#retry.initialMs, this.#retry.maxMs, this.#random));
        this.#flushTimer.set(delay, () => this.flush());
      }
      return;
    }
    this.#outbox.remove(entry);
    entry.reject(error);
  }
}

/** The promise's result from the `ack` (RetractResult, EditResult, ReactionResult, PublishResult). */
function ackResult(entry: OutboxEntry, frame: Record<string, unknown>): unknown {
  if (entry.kind === 'retract')
    return typeof frame.eventSeq === 'number' ? { id: frame.id, seq: frame.seq, eventSeq: frame.eventSeq } : { id: frame.id, seq: frame.seq };
  if (entry.kind === 'edit') return { id: frame.id, seq: frame.seq, version: frame.version, updatedAt: frame.updatedAt, eventSeq: frame.eventSeq };
  if (entry.kind === 'react' || entry.kind === 'unreact') return { id: frame.id, seq: frame.seq, type: frame.type, reacted: frame.reacted };
  // an ephemeral publish over HTTP (the sse transport) is answered without a seq
  const result: Record<string, unknown> = typeof frame.seq === 'number' ? { id: frame.id, seq: frame.seq } : { id: frame.id };
  if (typeof frame.timestamp === 'number') result.timestamp = frame.timestamp;
  if (frame.ephemeral === true) result.ephemeral = true;
  return result;
}
