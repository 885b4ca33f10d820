import { Timer } from './clock.ts';
import { str } from './frames.ts';
import { HttpSender, type HttpHost } from './http-send.ts';
import { EventStream, type StreamChannel } from './sse-stream.ts';
import { askMe, renewalAnswer } from './sse-me.ts';
import { MAX_STREAM_CHANNELS, MAX_STREAMS, Slot, type Entry } from './sse-slot.ts';

export interface SessionHost extends HttpHost {
  /** A server frame, as /v1/connect would have sent it (refs put back where the socket has them). */
  frame(frame: Record<string, unknown>): void;
  /** The session is over (a stream ended or was refused): `code` is the socket close code it amounts to. Told once. */
  lost(code: number, reason: string, retryAfter?: number): void;
  /** These channels' stream is being reopened: each subscribes again from its position (its `subscribe` frame comes back at once). */
  resubscribe(channelIds: string[]): void;
}

/**
 * The client's connection when it is on Server-Sent Events: it takes the frames the client would
 * send on /v1/connect and does what they ask with event streams and HTTP, and it hands back the
 * frames /v1/connect would have answered with. The client above it does not know the difference.
 *
 * - `subscribe` / `unsubscribe` change the channel list of a stream; streams are reopened once
 *   per turn of the event loop with what changed (a 0 ms timer gathers a burst). Reopening a
 *   stream ends the subscriptions it carried, so each of its other channels subscribes again from
 *   its position (`host.resubscribe`), and the replay from `~seq` leaves no gap and no duplicate.
 *   The server's `subscribed` has no ref: the session puts back the ref of the `subscribe` it answers.
 * - `publish` / `retract` / `edit` / `react` / `unreact` and `presence-enter` / `-update` / `-leave` go over HTTP (http-send.ts;
 *   presence names the connectionId of the stream carrying the channel); `auth` reopens every stream
 *   with the new token and is answered by the first new stream's `connected`; `ping` is answered here
 *   (each stream's own watchdog notices a dead stream). Moderation goes to the member and ban routes
 *   over HTTP too; any other frame has no SSE form and is refused with `unsupported`.
 * - `subscribe-inbox` rides one stream (`inbox=`, with or without channels): it is reopened with
 *   `inbox=<last notification id>` (or `1`) and its `inbox-subscribed` gets the frame's ref back.
 * - The first `connected` of any stream is the session's. With no channel there is no stream to
 *   open: `GET /v1/me` checks the token and the way to the server instead, and its answer (user,
 *   expiry) makes the `connected`; with no stream open, a `ping` and an `auth` are checked the same way.
 * - Any stream that ends or is refused ends the whole session, with the close code it amounts to.
 */
export class SseSession {
  readonly transport = 'sse' as const;
  readonly #host: SessionHost;
  readonly #http: HttpSender;
  readonly #flushTimer: Timer;
  #slots: Slot[] = [];
  readonly #dirty = new Set<Slot>();
  #token: string;
  #closed = false;
  #announced = false;
  /** Streams opened so far (each gets the next number). */
  #opened = 0;
  /** A slot being reopened and its channels that are subscribing again. */
  #rebuilding: { slot: Slot; ids: Set<string> } | undefined;
  /** The inbox as subscribed (`since`: the last notification delivered) and the slot whose stream carries it. */
  #inbox: { ref: unknown; since: string | undefined; ready: boolean } | undefined;
  #inboxSlot: Slot | undefined;
  /** An `auth` waiting for the `connected` of a stream opened after it. */
  #auth: { ref: unknown; after: number } | undefined;

  constructor(host: SessionHost, token: string, channels: readonly StreamChannel[]) {
    this.#host = host;
    this.#token = token;
    this.#flushTimer = new Timer(host.clock);
    this.#http = new HttpSender({
      baseUrl: host.baseUrl,
      fetch: host.fetch,
      clock: host.clock,
      token: (fresh) => host.token(fresh),
      answer: (frame) => this.#deliver(frame),
    });
    for (const channel of channels) {
      const slot = this.#slotWithRoom();
      if (!slot) break; // past MAX_STREAMS: their subscribe is refused when it comes
      slot.entries.set(channel.channelId, { channelId: channel.channelId, since: channel.since, rewind: channel.rewind, ref: undefined, opened: false });
    }
    for (const slot of this.#slots) this.#open(slot);
    if (this.#slots.length === 0) {
      void this.#me(token).then((me) => {
        if (!me || this.#announced) return;
        this.#announced = true;
        this.#deliver({ op: 'connected', userId: me.userId, expiresAt: me.expiresAt });
      });
    }
  }

  /** The channels on each open stream (for tests and diagnostics). */
  get streams(): string[][] {
    return this.#slots.map((slot) => [...slot.carried.keys()]);
  }

  /** A frame the client sends on its connection. */
  send(frame: Record<string, unknown>): void {
    if (this.#closed) return;
    switch (frame.op) {
      case 'subscribe':
        return this.#subscribe(frame);
      case 'unsubscribe':
        return this.#unsubscribe(frame);
      case 'publish':
      case 'retract':
      case 'edit':
      case 'react':
      case 'unreact':
      case 'remove-member':
      case 'ban-member':
      case 'unban-member':
        return this.#http.send(frame);
      case 'presence-enter':
      case 'presence-update':
      case 'presence-leave':
        return this.#presence(frame);
      case 'subscribe-inbox':
        return this.#subscribeInbox(frame);
      case 'auth':
        return this.#renew(frame);
      case 'ping':
        // each stream's watchdog notices a dead stream; without one, ask the server
        if (this.#slots.length > 0) return this.#reply({ op: 'pong', ref: frame.ref });
        void this.#me(this.#token).then((me) => me && this.#deliver({ op: 'pong', ref: frame.ref }));
        return;
      case 'unsubscribe-inbox': {
        const slot = this.#inboxSlot;
        this.#inbox = this.#inboxSlot = undefined;
        if (slot) this.#markDirty(slot);
        return this.#reply({ op: 'inbox-unsubscribed', ref: frame.ref });
      }
      default:
        this.#reply({
          op: 'error',
          ref: frame.ref,
          ...(frame.channelId === undefined ? {} : { channelId: frame.channelId }),
          code: 'unsupported',
          reason: `${String(frame.op)} needs the WebSocket transport; the client is on Server-Sent Events`,
        });
    }
  }

  /** Ends every stream; nothing more reaches the host. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#flushTimer.clear();
    this.#dirty.clear();
    for (const slot of this.#slots) slot.stream?.close();
    this.#slots = [];
    this.#http.close();
  }

  #subscribe(frame: Record<string, unknown>): void {
    const channelId = String(frame.channelId);
    const since = typeof frame.since === 'number' ? frame.since : undefined;
    const rewind = typeof frame.rewind === 'number' || typeof frame.rewind === 'string' ? frame.rewind : undefined;
    const entry: Entry = { channelId, since, rewind, ref: frame.ref, opened: false };
    if (this.#rebuilding?.ids.has(channelId)) {
      this.#rebuilding.slot.entries.set(channelId, entry);
      return;
    }
    let slot = this.#slotOf(channelId);
    const current = slot?.entries.get(channelId);
    // at the start the stream was opened before the channel's subscribe: it answers this one
    if (
      current &&
      current.ref === undefined &&
      current.opened &&
      current.since === since &&
      current.rewind === rewind &&
      slot!.carried.get(channelId) === current
    ) {
      current.ref = entry.ref;
      return;
    }
    slot ??= this.#slotWithRoom();
    if (!slot) {
      const most = MAX_STREAMS * MAX_STREAM_CHANNELS;
      this.#reply({
        op: 'error',
        ref: frame.ref,
        channelId,
        code: 'rate_limited',
        reason: `over ${most} channels on Server-Sent Events (${MAX_STREAMS} streams of ${MAX_STREAM_CHANNELS})`,
      });
      return;
    }
    slot.entries.set(channelId, entry);
    this.#markDirty(slot);
  }

  /** A presence frame: over HTTP for the stream that carries the channel, once its subscription is live there. */
  #presence(frame: Record<string, unknown>): void {
    const channelId = String(frame.channelId);
    const slot = this.#slotOf(channelId);
    const entry = slot?.entries.get(channelId);
    if (!slot || !entry || slot.carried.get(channelId) !== entry || slot.connectionId === undefined) {
      // no stream holds its subscription: nothing to leave, nothing to enter yet
      if (frame.op === 'presence-leave') return this.#reply({ op: 'presence-left', ref: frame.ref, channelId });
      return this.#reply({
        op: 'error',
        ref: frame.ref,
        channelId,
        code: 'invalid_request',
        reason: `subscribe to the channel (and wait for \`subscribed\`) before ${String(frame.op)}`,
      });
    }
    this.#http.send({ ...frame, connectionId: slot.connectionId });
  }

  /** `subscribe-inbox`: the first stream (a new one without channels if none) is reopened with the inbox. */
  #subscribeInbox(frame: Record<string, unknown>): void {
    if (this.#inbox) return this.#reply({ op: 'error', ref: frame.ref, code: 'invalid_request', reason: 'the inbox is already subscribed on this connection' });
    const slot = this.#slots[0] ?? this.#slotWithRoom();
    if (!slot) return;
    this.#inbox = { ref: frame.ref, since: typeof frame.since === 'string' ? frame.since : undefined, ready: false };
    this.#inboxSlot = slot;
    this.#markDirty(slot);
  }

  #unsubscribe(frame: Record<string, unknown>): void {
    const channelId = String(frame.channelId);
    const slot = this.#slotOf(channelId);
    if (slot) {
      slot.entries.delete(channelId);
      this.#markDirty(slot);
    }
    this.#reply({ op: 'unsubscribed', ref: frame.ref, channelId });
  }

  /** A new token: every stream is reopened with it, and the first of them to say `connected` answers. */
  #renew(frame: Record<string, unknown>): void {
    this.#token = String(frame.token);
    if (this.#slots.length === 0) return this.#checkRenewal(frame.ref);
    this.#auth = { ref: frame.ref, after: this.#opened };
    for (const slot of this.#slots) this.#markDirty(slot);
  }

  #markDirty(slot: Slot): void {
    this.#dirty.add(slot);
    if (!this.#flushTimer.pending) this.#flushTimer.set(0, () => this.#flush());
  }

  #flush(): void {
    for (const slot of [...this.#dirty]) {
      this.#dirty.delete(slot);
      if (this.#closed) return;
      this.#rebuild(slot);
    }
    if (this.#auth && this.#slots.length === 0) {
      const ref = this.#auth.ref;
      this.#auth = undefined;
      this.#checkRenewal(ref);
    }
  }

  /** Reopens a slot's stream with its channels as they are now; the channels it carried subscribe again from their positions. */
  #rebuild(slot: Slot): void {
    slot.stream?.close();
    slot.stream = undefined;
    slot.carried = new Map();
    const carried = [...slot.entries.values()].filter((entry) => entry.opened);
    for (const entry of carried) slot.entries.delete(entry.channelId);
    if (carried.length > 0) {
      const ids = carried.map((entry) => entry.channelId);
      this.#rebuilding = { slot, ids: new Set(ids) };
      try {
        this.#host.resubscribe(ids);
      } finally {
        this.#rebuilding = undefined;
      }
    }
    if (this.#closed) return;
    if (slot.entries.size === 0 && slot !== this.#inboxSlot) {
      this.#slots = this.#slots.filter((other) => other !== slot);
      return;
    }
    this.#open(slot);
  }

  #open(slot: Slot): void {
    const entries = [...slot.entries.values()];
    for (const entry of entries) entry.opened = true;
    slot.carried = new Map(entries.map((entry) => [entry.channelId, entry]));
    slot.connectionId = undefined;
    const serial = ++this.#opened;
    const inbox = slot === this.#inboxSlot && this.#inbox ? (this.#inbox.since ?? '1') : undefined;
    if (this.#inbox && inbox !== undefined) this.#inbox.ready = false;
    const stream: EventStream = new EventStream(
      {
        baseUrl: this.#host.baseUrl,
        fetch: this.#host.fetch,
        clock: this.#host.clock,
        token: this.#token,
        channels: entries.map(({ channelId, since, rewind }) => ({ channelId, since, rewind })),
        inbox,
      },
      {
        frame: (frame) => {
          if (!this.#closed && slot.stream === stream) this.#onStreamFrame(slot, serial, frame);
        },
        ended: (code, reason, retryAfter) => {
          if (this.#closed || slot.stream !== stream) return;
          this.close();
          this.#host.lost(code, reason, retryAfter);
        },
      },
    );
    slot.stream = stream;
  }

  #onStreamFrame(slot: Slot, serial: number, frame: Record<string, unknown>): void {
    if (frame.op === 'connected') {
      slot.connectionId = str(frame.connectionId);
      if (this.#auth && serial > this.#auth.after) {
        const ref = this.#auth.ref;
        this.#auth = undefined;
        this.#deliver({ op: 'authenticated', ref, expiresAt: frame.expiresAt });
      }
      if (!this.#announced) {
        this.#announced = true;
        this.#deliver(frame);
      }
      return;
    }
    const channelId = str(frame.channelId);
    if (channelId === undefined) return this.#onInboxFrame(slot, frame);
    const entry = slot.carried.get(channelId);
    // a channel unsubscribed, or subscribing again, since this stream opened: not its subscription any more
    if (!entry || slot.entries.get(channelId) !== entry || entry.ref === undefined) return;
    switch (frame.op) {
      case 'subscribed':
        return this.#deliver({ ...frame, ref: entry.ref });
      case 'error':
        // refused at the start of the stream: the answer to its subscribe
        slot.entries.delete(channelId);
        return this.#deliver({ ...frame, ref: entry.ref });
      case 'unsubscribed':
        // the server ended it (no ref); a re-subscription comes as a new subscribe
        slot.entries.delete(channelId);
        return this.#deliver(frame);
      default:
        return this.#deliver(frame);
    }
  }

  /** A frame about no channel: the inbox's (its `inbox-subscribed` with the ref it answers), else an error for the client's error event. */
  #onInboxFrame(slot: Slot, frame: Record<string, unknown>): void {
    const inbox = slot === this.#inboxSlot ? this.#inbox : undefined;
    if (frame.op === 'notification') {
      if (!inbox) return;
      if (typeof frame.id === 'string') inbox.since = frame.id;
      return this.#deliver(frame);
    }
    if (frame.op === 'inbox-subscribed') {
      if (!inbox) return;
      inbox.ready = true;
      return this.#deliver({ op: 'inbox-subscribed', ref: inbox.ref });
    }
    if (frame.op !== 'error') return;
    // refused at the start of the stream: the answer to the inbox's subscribe
    if (inbox && !inbox.ready) {
      this.#inbox = this.#inboxSlot = undefined;
      return this.#deliver({ ...frame, ref: inbox.ref });
    }
    this.#deliver(frame);
  }

  /** `GET /v1/me` with `token`: who and until when; a refusal or no answer ends the session as a refused stream would (undefined then). */
  async #me(token: string): Promise<{ userId: unknown; expiresAt: unknown } | undefined> {
    const answer = await askMe(this.#host, token);
    if (this.#closed) return undefined;
    if ('userId' in answer) return answer;
    this.close();
    this.#host.lost(answer.code, answer.reason, answer.retryAfter);
    return undefined;
  }

  /** A new token with no stream to reopen: the server checks it; refused, it is the `auth`'s error and the session goes on. */
  #checkRenewal(ref: unknown): void {
    void renewalAnswer(this.#host, this.#token, ref).then((answer) => this.#deliver(answer));
  }

  #slotOf(channelId: string): Slot | undefined {
    return this.#slots.find((slot) => slot.entries.has(channelId));
  }

  #slotWithRoom(): Slot | undefined {
    const slot = this.#slots.find((candidate) => candidate.entries.size < MAX_STREAM_CHANNELS);
    if (slot || this.#slots.length >= MAX_STREAMS) return slot;
    const added = new Slot();
    this.#slots.push(added);
    return added;
  }

  #deliver(frame: Record<string, unknown>): void {
    if (!this.#closed) this.#host.frame(frame);
  }

  /** An answer made here: delivered after the frame that asked for it has been sent, as an answer from the server would be. */
  #reply(frame: Record<string, unknown>): void {
    void Promise.resolve().then(() => this.#deliver(frame));
  }
}
