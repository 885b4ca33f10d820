import { Backoff } from './backoff.ts';
import { Timer } from './clock.ts';
import type { Core } from './core.ts';
import { Emitter, reportListenerError } from './emitter.ts';
import { RtmError } from './errors.ts';
import { historyOf, type History } from './history.ts';
import { getJson } from './http.ts';
import { isSeq, newIdempotencyKey } from './ids.ts';
import { ChannelPosition } from './resume.ts';
import type {
  HistoryOptions,
  Message,
  PresenceChange,
  PublishOptions,
  PublishResult,
  RetractResult,
  Retraction,
  RosterEntry,
} from './types.ts';

export type MessageListener = (message: Message) => void;

export interface ChannelEvents {
  /** A message of the channel was retracted (live only). */
  retract: (retraction: Retraction) => void;
  /** A user came online in, or left, the channel. */
  presence: (change: PresenceChange) => void;
  /** The server confirmed a subscription (first time, and again after each resume). */
  subscribed: (info: { lastSeq: number; resumed: boolean }) => void;
  /**
   * The server ended the subscription. With `banned` or `forbidden` it stays ended (no automatic
   * re-subscription); with `unavailable` the SDK re-subscribes from its last seq.
   */
  unsubscribed: (info: { code: string; reason?: string; resubscribing: boolean }) => void;
  /** A subscription was refused or failed. */
  error: (error: RtmError) => void;
}

export interface PresenceEvents {
  join: (userId: string) => void;
  leave: (userId: string) => void;
}

/** A listener's handle on a channel subscription. */
export interface Subscription {
  readonly channel: Channel;
  /** Resolves on the first `subscribed` (`lastSeq`: where the server's replay ended); rejects if it ends first. */
  readonly ready: Promise<{ lastSeq: number }>;
  /** False once unsubscribed or ended by the server. */
  readonly active: boolean;
  /** Stops the listener; the last one of the channel unsubscribes on the server. */
  unsubscribe(): Promise<void>;
}

class ChannelSubscription implements Subscription {
  readonly channel: Channel;
  readonly ready: Promise<{ lastSeq: number }>;
  readonly listener: MessageListener;
  active = true;
  settled = false;
  #resolve!: (value: { lastSeq: number }) => void;
  #reject!: (error: RtmError) => void;

  constructor(channel: Channel, listener: MessageListener) {
    this.channel = channel;
    this.listener = listener;
    this.ready = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // an application that never awaits `ready` must not get an unhandled rejection from it
    this.ready.catch(() => {});
  }

  resolve(lastSeq: number): void {
    if (this.settled) return;
    this.settled = true;
    this.#resolve({ lastSeq });
  }

  reject(error: RtmError): void {
    if (this.settled) return;
    this.settled = true;
    this.#reject(error);
  }

  unsubscribe(): Promise<void> {
    return this.channel.removeSubscription(this);
  }
}

type Wire = 'none' | 'subscribing' | 'subscribed' | 'unsubscribing';

/**
 * One channel of the client (`client.channel(id)`). All its listeners share one subscription on
 * the connection, which goes:
 *
 *   none → subscribing (`subscribe` sent; replay) → subscribed (live) → unsubscribing → none
 *
 * A lost connection puts it back to `none`, and the next `connected` subscribes again with `since` =
 * the position (ChannelPosition), so nothing is missed or repeated. A gap seen live re-subscribes the
 * same way: `unsubscribe`, then, once answered, `subscribe` from the position (frames that arrive
 * while unsubscribing belong to the old subscription and are ignored).
 */
export class Channel {
  readonly id: string;
  readonly presence: Presence;
  readonly #core: Core;
  readonly #events = new Emitter<ChannelEvents>();
  readonly #subs = new Set<ChannelSubscription>();
  #position = new ChannelPosition();
  #wire: Wire = 'none';
  #subscribeRef: number | undefined;
  #unsubscribeRef: number | undefined;
  #resumed = false;
  #unsubscribeWaiters: Array<() => void> = [];
  readonly #retry: Timer;
  readonly #backoff: Backoff;

  constructor(core: Core, id: string) {
    this.#core = core;
    this.id = id;
    this.#retry = new Timer(core.clock);
    this.#backoff = new Backoff(core.retryInitialMs, core.retryMaxMs, core.random);
    this.presence = new Presence(core, id);
  }

  /** True while at least one listener is subscribed. */
  get subscribed(): boolean {
    return this.#subs.size > 0;
  }

  /** The highest seq delivered (or confirmed by the server), where a resume starts. */
  get lastSeq(): number | undefined {
    return this.#position.position;
  }

  on<K extends keyof ChannelEvents>(name: K, listener: ChannelEvents[K]): () => void {
    return this.#events.on(name, listener);
  }

  /**
   * Adds a listener. The first one subscribes on the server: from `since` (every persisted message
   * with a higher seq is replayed first) or, without it, live from now. Later listeners join the
   * live subscription; `since` is refused for them.
   */
  subscribe(listener: MessageListener, options: { since?: number } = {}): Subscription {
    if (typeof listener !== 'function') throw new TypeError('subscribe(listener): listener must be a function');
    const { since } = options;
    if (since !== undefined && !isSeq(since)) throw new RtmError('invalid_request', 'since must be an integer from 0 to 2^53-1');
    if (this.#subs.size > 0 && since !== undefined) {
      throw new RtmError('invalid_request', `channel ${this.id} is already subscribed: since applies to its first subscription`);
    }
    const sub = new ChannelSubscription(this, listener);
    if (this.#subs.size === 0) {
      this.#position = new ChannelPosition(since);
      this.#resumed = false;
    }
    this.#subs.add(sub);
    if (this.#wire === 'subscribed') sub.resolve(this.#position.position ?? 0);
    this.#sync();
    return sub;
  }

  /** Publishes a message; resolves with its `ack` once committed. */
  publish(content: Record<string, unknown>, options: PublishOptions = {}): Promise<PublishResult> {
    if (content === null || typeof content !== 'object' || Array.isArray(content)) {
      return Promise.reject(new RtmError('invalid_request', 'content must be a JSON object'));
    }
    const frame: Record<string, unknown> = { op: 'publish', channelId: this.id, content };
    if (options.type !== undefined) frame.type = options.type;
    if (options.to !== undefined) frame.to = options.to;
    if (options.mentions !== undefined) frame.mentions = options.mentions;
    if (options.ephemeral) frame.ephemeral = true;
    frame.idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
    return this.#core.enqueue<PublishResult>('publish', this.id, frame, options.ephemeral === true);
  }

  /** Retracts one of the user's own messages. */
  retract(messageId: string, reason?: string): Promise<RetractResult> {
    const frame: Record<string, unknown> = { op: 'retract', channelId: this.id, id: messageId };
    if (reason !== undefined) frame.reason = reason;
    return this.#core.enqueue<RetractResult>('retract', this.id, frame, false);
  }

  /** Persisted messages, page by page over HTTP: newest first, or oldest first with `after`. */
  history(options: HistoryOptions = {}): History {
    return historyOf(this.#core.http, this.id, options);
  }

  // ---- driven by the client ----

  /** @internal the connection is up: (re-)subscribe if wanted. */
  connected(): void {
    this.#sync();
  }

  /** @internal the connection is gone: the server forgot the subscription. */
  connectionLost(): void {
    this.#wire = 'none';
    this.#subscribeRef = undefined;
    this.#unsubscribeRef = undefined;
    this.#retry.clear();
    this.#settleUnsubscribes();
  }

  /** @internal the client was closed: pending `ready` promises reject. */
  clientClosed(error: RtmError): void {
    this.connectionLost();
    for (const sub of this.#subs) sub.reject(error);
  }

  /** @internal a seq of this channel used by a message addressed to other users: advance, deliver nothing. */
  onSkip(seq: number): void {
    if (this.#wire !== 'subscribing' && this.#wire !== 'subscribed') return;
    if (this.#position.accept(seq) === 'gap') this.#unsubscribe();
  }

  /** @internal a message frame of this channel. */
  onMessage(message: Message): void {
    if (this.#wire !== 'subscribing' && this.#wire !== 'subscribed') return;
    if (message.ephemeral) return this.#deliver(message);
    if (typeof message.seq !== 'number') return;
    const verdict = this.#position.accept(message.seq);
    if (verdict === 'deliver') this.#deliver(message);
    else if (verdict === 'gap') this.#unsubscribe();
  }

  /** @internal `subscribed`. */
  onSubscribed(ref: unknown, lastSeq: number): void {
    if (this.#wire !== 'subscribing' || ref !== this.#subscribeRef) return;
    this.#wire = 'subscribed';
    this.#position.subscribed(lastSeq);
    this.#backoff.reset();
    const resumed = this.#resumed;
    this.#resumed = true;
    for (const sub of this.#subs) sub.resolve(lastSeq);
    this.#events.emit('subscribed', { lastSeq, resumed });
  }

  /** @internal `unsubscribed`: the answer to ours (with ref) or the server ending it (with code). */
  onUnsubscribed(ref: unknown, code: string | undefined, reason: string | undefined): void {
    if (ref !== undefined && code === undefined) {
      if (this.#wire !== 'unsubscribing' || ref !== this.#unsubscribeRef) return;
      this.#wire = 'none';
      this.#unsubscribeRef = undefined;
      this.#settleUnsubscribes();
      this.#sync();
      return;
    }
    if (this.#wire !== 'subscribing' && this.#wire !== 'subscribed') return;
    this.#wire = 'none';
    this.#subscribeRef = undefined;
    const ended = code ?? 'unavailable';
    if (ended === 'banned' || ended === 'forbidden') {
      this.#events.emit('unsubscribed', { code: ended, reason, resubscribing: false });
      this.#end(new RtmError(ended, reason));
      return;
    }
    this.#events.emit('unsubscribed', { code: ended, reason, resubscribing: true });
    this.#retryLater(0);
  }

  /** @internal an `error` frame; true when it answered this channel's subscribe. */
  onError(ref: unknown, error: RtmError): boolean {
    if (ref === undefined || ref !== this.#subscribeRef || this.#wire !== 'subscribing') return false;
    this.#wire = 'none';
    this.#subscribeRef = undefined;
    this.#events.emit('error', error);
    if (error.code === 'unavailable') this.#retryLater((error.retryAfter ?? 0) * 1000);
    else this.#end(error);
    return true;
  }

  /** @internal `{op:"retract"}`. */
  onRetract(retraction: Retraction): void {
    if (this.#wire !== 'subscribing' && this.#wire !== 'subscribed') return;
    this.#events.emit('retract', retraction);
  }

  /** @internal `{op:"presence"}`. */
  onPresence(change: PresenceChange): void {
    if (this.#wire !== 'subscribing' && this.#wire !== 'subscribed') return;
    this.#events.emit('presence', change);
    this.presence.emit(change);
  }

  /** @internal Subscription.unsubscribe(). */
  removeSubscription(sub: ChannelSubscription): Promise<void> {
    if (!sub.active) return Promise.resolve();
    sub.active = false;
    this.#subs.delete(sub);
    sub.reject(new RtmError('unsubscribed', 'unsubscribed before the subscription was ready'));
    if (this.#subs.size > 0) return Promise.resolve();
    this.#retry.clear();
    if (this.#wire === 'none') return Promise.resolve();
    return new Promise((resolve) => {
      this.#unsubscribeWaiters.push(resolve);
      if (this.#wire !== 'unsubscribing') this.#unsubscribe();
    });
  }

  // ---- internals ----

  #sync(): void {
    if (!this.#core.isConnected()) return;
    const wanted = this.#subs.size > 0;
    if (wanted && this.#wire === 'none' && !this.#retry.pending) {
      const since = this.#position.startReplay();
      const ref = this.#core.nextRef();
      this.#subscribeRef = ref;
      this.#wire = 'subscribing';
      this.#core.send(since === undefined ? { op: 'subscribe', ref, channelId: this.id } : { op: 'subscribe', ref, channelId: this.id, since });
    } else if (!wanted && (this.#wire === 'subscribing' || this.#wire === 'subscribed')) {
      this.#unsubscribe();
    }
  }

  #unsubscribe(): void {
    const ref = this.#core.nextRef();
    this.#unsubscribeRef = ref;
    this.#subscribeRef = undefined;
    this.#wire = 'unsubscribing';
    this.#core.send({ op: 'unsubscribe', ref, channelId: this.id });
  }

  #retryLater(atLeastMs: number): void {
    this.#retry.set(Math.max(atLeastMs, this.#backoff.next()), () => this.#sync());
  }

  #deliver(message: Message): void {
    for (const sub of [...this.#subs]) {
      if (!sub.active) continue;
      try {
        sub.listener(message);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  /** The subscription is over for good (banned, forbidden, refused): every listener is dropped. */
  #end(error: RtmError): void {
    this.#retry.clear();
    for (const sub of this.#subs) {
      sub.active = false;
      sub.reject(error);
    }
    this.#subs.clear();
    this.#settleUnsubscribes();
  }

  #settleUnsubscribes(): void {
    const waiters = this.#unsubscribeWaiters;
    this.#unsubscribeWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** Who is in a channel: the roster over HTTP, and join/leave from a subscribed channel's presence frames. */
export class Presence {
  readonly #core: Core;
  readonly #channelId: string;
  readonly #events = new Emitter<PresenceEvents>();

  constructor(core: Core, channelId: string) {
    this.#core = core;
    this.#channelId = channelId;
  }

  /** The roster: members and everyone online, sorted by userId (`GET /v1/channels/{id}/members`). */
  async get(): Promise<RosterEntry[]> {
    const body = await getJson<{ members: RosterEntry[] }>(this.#core.http, `/v1/channels/${encodeURIComponent(this.#channelId)}/members`);
    return body.members;
  }

  on<K extends keyof PresenceEvents>(name: K, listener: PresenceEvents[K]): () => void {
    return this.#events.on(name, listener);
  }

  /** @internal */
  emit(change: PresenceChange): void {
    this.#events.emit(change.online ? 'join' : 'leave', change.userId);
  }
}
