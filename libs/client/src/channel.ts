import type { Core } from './core.ts';
import { DeltaReader } from './delta.ts';
import type { ChannelEvents } from './channel-events.ts';
import { Emitter } from './emitter.ts';
import { RtmError } from './errors.ts';
import { historyOf, type History } from './history.ts';
import { isSeq } from './ids.ts';
import { editFrame, publishFrame, reactFrame, retractFrame, versionsOf } from './message-requests.ts';
import { Presence } from './presence.ts';
import { ChannelPosition, VersionBook } from './resume.ts';
import { rewindProblem, type Rewind } from './rewind.ts';
import { ChannelSubscription, type MessageListener, type Subscription } from './subscription.ts';
import { WireState } from './wire.ts';
import type {
  EditResult,
  HistoryOptions,
  Message,
  MessageUpdate,
  MessageVersion,
  Occupancy,
  PresenceBatch,
  PresenceChange,
  PresenceMember,
  PublishOptions,
  PublishResult,
  ReactionResult,
  ReactionsUpdate,
  RetractResult,
  Retraction,
} from './types.ts';

export { Presence, type PresenceEvents } from './presence.ts';
export type { ChannelEvents } from './channel-events.ts';

export type { MessageListener, Subscription } from './subscription.ts';

/**
 * One channel of the client (`client.channel(id)`). All its listeners share one subscription on
 * the connection, which goes:
 *
 *   none → subscribing (`subscribe` sent; replay) → subscribed (live) → unsubscribing → none
 *
 * A lost connection puts it back to `none`, and the next `connected` subscribes again with `since` =
 * the position (ChannelPosition), so nothing is missed or repeated (a `rewind` is sent only while
 * there is no position yet). A gap seen live re-subscribes the
 * same way: `unsubscribe`, then, once answered, `subscribe` from the position (frames that arrive
 * while unsubscribing belong to the old subscription and are ignored).
 */
export class Channel {
  readonly id: string;
  readonly presence: Presence;
  readonly #core: Core;
  readonly #events = new Emitter<ChannelEvents>();
  readonly #w: WireState<ChannelSubscription, Message>;
  #position = new ChannelPosition();
  /** Versions of messages seen, to recognise a late `update`. */
  #versions = new VersionBook();
  #resumed = false;
  #occupancy: Occupancy | undefined;
  /** The current subscription was asked with `occupancy: true`. */
  #watchingOccupancy = false;
  /** Messages asked as deltas (`subscribe` with `delta`), and the subscription's base. */
  #delta: 'fossil' | undefined;
  readonly #deltas = new DeltaReader();

  constructor(core: Core, id: string) {
    this.#core = core;
    this.id = id;
    this.#w = new WireState<ChannelSubscription, Message>(core);
    this.presence = new Presence(core, id);
    this.presence.attach(this);
  }

  /** @internal the subscription is live on the current connection (presence requests may go). */
  get live(): boolean {
    return this.#w.state === 'subscribed' && this.#core.isConnected();
  }

  /** True while at least one listener is subscribed. */
  get subscribed(): boolean {
    return this.#w.listeners.size > 0;
  }

  /**
   * The channel's position: the highest place of its sequence delivered (a message's `seq`, a
   * change's `eventSeq`, a skipped seq) or confirmed by the server, where a resume starts.
   */
  get lastSeq(): number | undefined {
    return this.#position.position;
  }

  /** @internal the `rewind` the next subscribe asks for: only before the subscription has a position. */
  get rewind(): Rewind | undefined {
    return this.#position.rewind;
  }

  /** The last counts received (`occupancy` listeners ask for them), or undefined. */
  get occupancy(): Occupancy | undefined {
    return this.#occupancy;
  }

  on<K extends keyof ChannelEvents>(name: K, listener: ChannelEvents[K]): () => void {
    const off = this.#events.on(name, listener);
    // the first occupancy listener of a live subscription: subscribe again, asking for the counts
    // (from the position, as after a gap: nothing is missed or repeated)
    if (name === 'occupancy' && this.#w.state === 'subscribed' && !this.#watchingOccupancy) this.#unsubscribe();
    return off;
  }

  /**
   * Adds a listener. The first one subscribes on the server: from `since` (every persisted message
   * with a higher seq is replayed first, and the older messages changed since come as `update` and
   * `retract` events), from `rewind` back (the last N messages, 1-100, or those
   * of the last `'30s'`, `'2m'`, `'1h'`, at most `'24h'`; asked once: a resume goes on from the
   * last seq delivered) or, without either, live from now. Later listeners join the live
   * subscription; `since` and `rewind` are refused for them, and their `delta` is not used (the
   * first one's is).
   *
   * `delta: "fossil"`: the server sends each message's content as a delta against the previous
   * one's where it can (less to download for a channel whose messages change little from one to
   * the next); listeners get every message whole, as without it. The channel's namespace must turn
   * `delta` on, else the subscribe is refused (`forbidden`). Over the event-stream fallback messages
   * come whole (it asks without `delta`).
   */
  subscribe(listener: MessageListener, options: { since?: number; rewind?: Rewind; delta?: 'fossil' } = {}): Subscription {
    if (typeof listener !== 'function') throw new TypeError('subscribe(listener): listener must be a function');
    const { since, rewind, delta } = options;
    if (since !== undefined && !isSeq(since)) throw new RtmError('invalid_request', 'since must be an integer from 0 to 2^53-1');
    const problem = rewind === undefined ? undefined : rewindProblem(rewind);
    if (problem !== undefined) throw new RtmError('invalid_request', problem);
    if (since !== undefined && rewind !== undefined) throw new RtmError('invalid_request', 'give since or rewind, not both');
    if (delta !== undefined && delta !== 'fossil') throw new RtmError('invalid_request', 'delta must be "fossil" (the one delta format)');
    if (this.#w.listeners.size > 0 && (since !== undefined || rewind !== undefined)) {
      throw new RtmError(
        'invalid_request',
        `channel ${this.id} is already subscribed: ${since !== undefined ? 'since' : 'rewind'} applies to its first subscription`,
      );
    }
    const sub = new ChannelSubscription(this, listener);
    if (this.#w.listeners.size === 0) {
      this.#position = new ChannelPosition(since, rewind);
      this.#versions = new VersionBook();
      this.#resumed = false;
      this.#delta = delta;
    }
    this.#w.listeners.add(sub);
    if (this.#w.state === 'subscribed') sub.resolve(this.#position.position ?? 0);
    this.#sync();
    return sub;
  }

  /** Publishes a message; resolves with its `ack` once committed. */
  publish(content: Record<string, unknown>, options: PublishOptions = {}): Promise<PublishResult> {
    return this.#request<PublishResult>('publish', () => publishFrame(this.id, content, options), options.ephemeral === true);
  }

  /** Retracts one of the user's own messages. */
  retract(messageId: string, reason?: string): Promise<RetractResult> {
    return this.#request<RetractResult>('retract', () => retractFrame(this.id, messageId, reason));
  }

  /**
   * Replaces the content of one of the user's own messages (the `edit` capability); resolves once
   * committed with its new `version`. Every subscriber gets an `update` event. Not repeated after
   * a lost connection (each edit makes a version): one whose outcome is unknown rejects with
   * `unavailable`.
   */
  edit(messageId: string, content: Record<string, unknown>): Promise<EditResult> {
    return this.#request<EditResult>('edit', () => editFrame(this.id, messageId, content));
  }

  /** Adds the user's reaction of `type` to a message (the `react` capability); again changes nothing. */
  react(messageId: string, type: string): Promise<ReactionResult> {
    return this.#request<ReactionResult>('react', () => reactFrame('react', this.id, messageId, type));
  }

  /** Takes back the user's reaction of `type` (`reacted: false`, also when there was none). */
  unreact(messageId: string, type: string): Promise<ReactionResult> {
    return this.#request<ReactionResult>('unreact', () => reactFrame('unreact', this.id, messageId, type));
  }

  /** Every version of a message's content, oldest first (the last is the content now), over HTTP; needs `history`. */
  versions(messageId: string): Promise<MessageVersion[]> {
    return versionsOf(this.#core.http, this.id, messageId);
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
    this.#w.lost();
    this.presence.lost();
  }

  /** @internal the client was closed: pending `ready` promises reject. */
  clientClosed(error: RtmError): void {
    this.#w.closed(error);
    this.presence.ended(error);
  }

  /** @internal a place of this channel's sequence with nothing for this user: advance, deliver nothing. */
  onSkip(seq: number): void {
    this.#placed(seq);
  }

  /** @internal a message frame of this channel. */
  onMessage(message: Message): void {
    if (!this.#w.live) return;
    // a delta's content is rebuilt before anything else; one that does not fit its base (it should
    // not happen) starts the subscription again from the last seq delivered, showing nothing wrong
    const frame = message as unknown as Record<string, unknown>;
    if ((this.#delta !== undefined || frame.delta !== undefined) && !this.#deltas.read(frame)) return this.#unsubscribe();
    if (message.ephemeral) return this.#w.deliver(message);
    if (typeof message.seq !== 'number' || !this.#placed(message.seq)) return;
    this.#versions.accept(message.id, message.version);
    this.#w.deliver(message);
  }

  /** @internal `{op:"update", eventSeq, …envelope}`: delivered unless an older version than one seen. */
  onUpdate(update: MessageUpdate): void {
    if (this.#placed(update.eventSeq) && this.#versions.accept(update.id, update.version)) this.#events.emit('update', update);
  }

  /** @internal `{op:"summary", eventSeq, id, seq, reactions}`. */
  onSummary(summary: ReactionsUpdate): void {
    if (this.#placed(summary.eventSeq)) this.#events.emit('summary', summary);
  }

  /** @internal `subscribed`. */
  onSubscribed(ref: unknown, lastSeq: number): void {
    if (this.#w.state !== 'subscribing' || ref !== this.#w.subscribeRef) return;
    this.#w.state = 'subscribed';
    this.#position.subscribed(lastSeq);
    this.#w.backoff.reset();
    const resumed = this.#resumed;
    this.#resumed = true;
    for (const sub of this.#w.listeners) sub.resolve(lastSeq);
    this.#events.emit('subscribed', { lastSeq, resumed });
    // the server forgot any entry with the previous subscription: enter again
    this.presence.subscribed();
  }

  /** @internal `unsubscribed`: the answer to ours (with ref) or the server ending it (with code). */
  onUnsubscribed(ref: unknown, code: string | undefined, reason: string | undefined): void {
    if (ref !== undefined && code === undefined) {
      if (this.#w.state !== 'unsubscribing' || ref !== this.#w.unsubscribeRef) return;
      this.#w.state = 'none';
      this.#w.unsubscribeRef = undefined;
      this.#w.settleUnsubscribes();
      this.#sync();
      return;
    }
    if (!this.#w.live) return;
    this.#w.state = 'none';
    this.#w.subscribeRef = undefined;
    this.presence.lost();
    const ended = code ?? 'unavailable';
    if (ended === 'banned' || ended === 'forbidden') {
      this.#events.emit('unsubscribed', { code: ended, reason, resubscribing: false });
      this.#w.end(new RtmError(ended, reason));
      this.presence.ended(new RtmError(ended, reason));
      return;
    }
    this.#events.emit('unsubscribed', { code: ended, reason, resubscribing: true });
    this.#w.retryLater(0, () => this.#sync());
  }

  /** @internal an `error` frame; true when it answered this channel's subscribe. */
  onError(ref: unknown, error: RtmError): boolean {
    if (this.presence.onError(ref, error)) return true;
    if (ref === undefined || ref !== this.#w.subscribeRef || this.#w.state !== 'subscribing') return false;
    this.#w.state = 'none';
    this.#w.subscribeRef = undefined;
    this.#events.emit('error', error);
    // not reachable, or the gateway's subscribe queue full (`rate_limited` with `retryAfter`): again later
    const retry = error.code === 'unavailable' || (error.code === 'rate_limited' && error.retryAfter !== undefined);
    if (retry) this.#w.retryLater((error.retryAfter ?? 0) * 1000, () => this.#sync());
    else this.#w.end(error);
    return true;
  }

  /** @internal `{op:"retract"}`: a place of the sequence (`eventSeq`), or without one (older servers) as it comes. */
  onRetract(retraction: Retraction): void {
    if (retraction.eventSeq === undefined ? !this.#w.live : !this.#placed(retraction.eventSeq)) return;
    this.#versions.forget(retraction.id);
    this.#events.emit('retract', retraction);
  }

  /** @internal `{op:"presence", joined, left, entered?, updated?, exited?}`. */
  onPresence(frame: { joined: string[]; left: string[]; entered?: PresenceMember[]; updated?: PresenceMember[]; exited?: string[] }): void {
    const { entered = [], updated = [], exited = [] } = frame;
    if (!this.#w.live || frame.joined.length + frame.left.length + entered.length + updated.length + exited.length === 0) return;
    for (const [users, online] of [
      [frame.joined, true],
      [frame.left, false],
    ] as const) {
      for (const userId of users) {
        const change: PresenceChange = { channelId: this.id, userId, online };
        this.#events.emit('presence', change);
        this.presence.emit(change);
      }
    }
    this.presence.emitEntries(entered, updated, exited);
    const batch: PresenceBatch = { channelId: this.id, joined: frame.joined, left: frame.left };
    if (frame.entered) batch.entered = entered;
    if (frame.updated) batch.updated = updated;
    if (frame.exited) batch.exited = exited;
    this.presence.emitBatch(batch);
  }

  /** @internal `presence-entered` / `-updated` / `-left`: the answer to this channel's presence request. */
  onPresenceAnswer(ref: unknown): void {
    this.presence.onAnswer(ref);
  }

  /** @internal `{op:"occupancy", connections, users}`. */
  onOccupancy(frame: { connections: number; users: number }): void {
    if (!this.#w.live) return;
    this.#occupancy = { channelId: this.id, connections: frame.connections, users: frame.users };
    this.#events.emit('occupancy', this.#occupancy);
  }

  /** @internal Subscription.unsubscribe(). */
  removeSubscription(sub: ChannelSubscription): Promise<void> {
    const done = this.#w.remove(sub, 'unsubscribed before the subscription was ready', () => this.#unsubscribe());
    // the entry lives with the subscription: the last listener gone, it is left
    if (this.#w.listeners.size === 0) this.presence.ended(new RtmError('unsubscribed', `channel ${this.id} was unsubscribed`));
    return done;
  }

  // ---- internals ----

  /**
   * A place of the channel's sequence arrived on the subscription: true when it is new and in
   * order (deliver it); a duplicate is dropped, and a gap seen live re-subscribes from the position.
   */
  #placed(position: number): boolean {
    if (!this.#w.live) return false;
    const verdict = this.#position.accept(position);
    if (verdict === 'gap') this.#unsubscribe();
    return verdict === 'deliver';
  }

  /** Queues a request whose frame `make` builds (a bad argument rejects at once, nothing queued). */
  #request<Result>(kind: 'publish' | 'retract' | 'edit' | 'react' | 'unreact', make: () => Record<string, unknown>, ephemeral = false): Promise<Result> {
    let frame: Record<string, unknown>;
    try {
      frame = make();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#core.enqueue<Result>(kind, this.id, frame, ephemeral);
  }

  #sync(): void {
    if (!this.#core.isConnected()) return;
    const wanted = this.#w.wanted();
    if (wanted === 'subscribe') {
      const since = this.#position.startReplay();
      const ref = this.#core.nextRef();
      this.#w.subscribing(ref);
      const frame: Record<string, unknown> = { op: 'subscribe', ref, channelId: this.id };
      if (since !== undefined) frame.since = since;
      else if (this.#position.rewind !== undefined) frame.rewind = this.#position.rewind;
      this.#watchingOccupancy = this.#events.count('occupancy') > 0;
      if (this.#watchingOccupancy) frame.occupancy = true;
      if (this.#delta !== undefined) frame.delta = this.#delta;
      // a new subscription on the server has no base: its first message comes whole
      this.#deltas.reset();
      this.#core.send(frame);
    } else if (wanted === 'unsubscribe') {
      this.#unsubscribe();
    }
  }

  #unsubscribe(): void {
    // the server drops the subscription's entry with it; a re-subscription enters again
    this.presence.lost();
    const ref = this.#core.nextRef();
    this.#w.unsubscribing(ref);
    this.#core.send({ op: 'unsubscribe', ref, channelId: this.id });
  }
}
