import { Backoff } from './backoff.ts';
import { Channel } from './channel.ts';
import { Timer, type Clock } from './clock.ts';
import type { Core } from './core.ts';
import { Emitter } from './emitter.ts';
import { asRtmError, quotaRefusal, RtmError } from './errors.ts';
import type { HttpContext } from './http.ts';
import { CHANNEL_ID } from './ids.ts';
import { Inbox } from './inbox.ts';
import { Publisher } from './publisher.ts';
import { TokenKeeper } from './token-keeper.ts';
import { errorOf, routeSubscriptionFrame, str } from './frames.ts';
import { Requests } from './requests.ts';
import { clientSettings } from './settings.ts';
import { Connector } from './connector.ts';
import { Suspension } from './suspension.ts';
import { Heartbeat, onNetworkBack } from './heartbeat.ts';
import { closeSocket, type Link, type LinkHandlers, type TransportName } from './transport.ts';
import type { ClientEvents, ClientOptions, ConnectionState, StateChange, WebSocketLike } from './types.ts';

/** A connection that stays up this long resets the reconnect backoff. */
export const STABLE_AFTER_MS = 5_000;
/** `connected` must arrive within this time of opening the socket (the server's handshake deadline is 10 s). */
export const HANDSHAKE_TIMEOUT_MS = 15_000;
export { PONG_TIMEOUT_MS } from './heartbeat.ts';

/** Creates a client; it connects at once unless `autoConnect: false`. */
export function createClient(options: ClientOptions): Client {
  return new Client(options);
}

/**
 * The connection and everything on it. States:
 *
 *   connecting ──connected──▶ connected ──socket lost──▶ disconnected ──timer──▶ connecting …
 *        └──refused (retryable)──▶ disconnected
 *   disconnected / connecting, no connection for suspendAfterMs ──▶ suspended (retries go on;
 *        publishes reject at once; the queued ones are rejected)
 *   any ──close() / 4400 / 4403 / 4429 quota_exceeded──▶ closed (no reconnect until connect())
 *
 * Retries wait a full-jitter exponential backoff (backoff.ts); 4429 waits at least the
 * `retryAfter` of the error frame before it (1 s without one); a 4401 fetches a new token and,
 * when the connection had been up (the token expired), reconnects at once.
 *
 * The connection is a Link (connector.ts): a WebSocket, or an SseSession (event streams and HTTP)
 * that takes and gives the same frames; while on SSE a probing WebSocket that says `connected`
 * takes over (`#adopt`).
 */
export class Client {
  readonly inbox: Inbox;
  readonly #connector: Connector;
  readonly #clock: Clock;
  readonly #suspension: Suspension;
  readonly #events = new Emitter<ClientEvents>();
  readonly #publisher: Publisher;
  readonly #tokens: TokenKeeper;
  readonly #channels = new Map<string, Channel>();
  readonly #core: Core;

  #state: ConnectionState;
  #connectionId: string | undefined;
  #userId: string | undefined;
  #link: Link | undefined;
  /** Bumped whenever the current connection is abandoned: events of older ones are ignored. */
  #generation = 0;
  readonly #backoff: Backoff;
  readonly #retryTimer: Timer;
  readonly #stableTimer: Timer;
  readonly #handshakeTimer: Timer;
  readonly #heartbeat: Heartbeat;
  #retryAt: number | undefined;
  /** retryAfter (s) of the last error frame (or refused event stream), for the 4429 that may follow it. */
  #retryAfterHint: number | undefined;

  readonly #requests = new Requests();
  #offNetworkEvents: (() => void) | undefined;

  constructor(options: ClientOptions) {
    const settings = clientSettings(options);
    this.#clock = settings.clock;
    const random = settings.random;
    this.#suspension = new Suspension(this.#clock, settings.suspendAfterMs, () => this.#enterSuspended());
    this.#publisher = new Publisher({
      maxQueued: settings.maxQueuedPublishes,
      clock: this.#clock,
      random: random,
      retry: settings.retry,
      suspension: this.#suspension,
      host: {
        isConnected: () => this.#state === 'connected',
        isClosed: () => this.#state === 'closed',
        nextRef: () => this.#requests.nextRef(),
        send: (frame) => this.#send(frame),
      },
    });
    this.#tokens = new TokenKeeper(settings.getToken, this.#clock, random, {
      connection: () => this.#generation,
      isConnected: () => this.#state === 'connected',
      authenticate: (token, answered, refused) => this.#request({ op: 'auth', token }, answered, refused),
      reportError: (error) => this.#events.emit('error', error),
    });
    this.#backoff = new Backoff(settings.retry.initialMs, settings.retry.maxMs, random);
    this.#retryTimer = new Timer(this.#clock);
    this.#stableTimer = new Timer(this.#clock);
    this.#handshakeTimer = new Timer(this.#clock);
    this.#heartbeat = new Heartbeat(this.#clock, settings.heartbeatMs, {
      ping: () =>
        this.#request(
          { op: 'ping' },
          () => {},
          () => {},
        ),
      drop: (reason) => this.#drop(reason),
    });

    this.#connector = new Connector(settings, {
      clock: this.#clock,
      token: (fresh) => this.#tokens.forHttp(fresh),
      channels: this.#channels,
      changed: (transport) => this.#events.emit('transport', transport),
      adopt: (socket, frame) => this.#adopt(socket, frame),
    });

    const http: HttpContext = { baseUrl: settings.urls.http, fetch: settings.fetch, clock: this.#clock, random, token: (fresh) => this.#tokens.forHttp(fresh) };
    this.#core = {
      clock: this.#clock,
      random,
      retryInitialMs: settings.retry.initialMs,
      retryMaxMs: settings.retry.maxMs,
      http,
      isConnected: () => this.#state === 'connected',
      transport: () => this.#connector.transport,
      nextRef: () => this.#requests.nextRef(),
      send: (frame) => this.#send(frame),
      enqueue: (kind, channelId, frame, ephemeral) => this.#publisher.enqueue(kind, channelId, frame, ephemeral),
      reportError: (error) => this.#events.emit('error', error),
    };
    this.inbox = new Inbox(this.#core);

    this.#state = 'closed';
    if (options.autoConnect !== false) this.connect();
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The server's id of the current connection (after `connected`). */
  get connectionId(): string | undefined {
    return this.#connectionId;
  }

  /** The token's user (after `connected`). */
  get userId(): string | undefined {
    return this.#userId;
  }

  /** `'websocket'` or `'sse'` (Server-Sent Events for receiving, HTTP for publishing): what the client uses now, or will use next. */
  get transport(): TransportName {
    return this.#connector.transport;
  }

  on<K extends keyof ClientEvents>(name: K, listener: ClientEvents[K]): () => void {
    return this.#events.on(name, listener);
  }

  /** The channel object for `id` (the same object for the same id). */
  channel(id: string): Channel {
    if (typeof id !== 'string' || !CHANNEL_ID.test(id)) {
      throw new RtmError('invalid_request', 'a channel id is 1-128 of A-Z a-z 0-9 _ . : @ = -');
    }
    let channel = this.#channels.get(id);
    if (!channel) this.#channels.set(id, (channel = new Channel(this.#core, id)));
    return channel;
  }

  /** Starts connecting (after `close()`, or with `autoConnect: false`); a no-op otherwise. */
  connect(): void {
    if (this.#state !== 'closed') return;
    this.#suspension.up();
    this.#backoff.reset();
    this.#listenToNetwork();
    this.#connector.start();
    void this.#attempt();
  }

  /** Closes for good: no reconnect, pending publishes reject with `closed`. */
  close(): void {
    this.#terminate(new RtmError('closed', 'the client was closed'), {});
  }

  async #attempt(): Promise<void> {
    this.#retryTimer.clear();
    this.#retryAt = undefined;
    const generation = ++this.#generation;
    this.#suspension.down();
    this.#setState('connecting', {});
    let token: string;
    try {
      token = await this.#tokens.forConnect();
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#events.emit('error', asRtmError(error, 'unauthorized'));
      this.#scheduleRetry(this.#backoff.next(), { reason: 'getToken failed' });
      return;
    }
    if (generation !== this.#generation) return;
    this.#open(token, generation);
  }

  /** What a connection of this generation tells the client. */
  #handlers(generation: number): LinkHandlers {
    return {
      frame: (frame) => {
        if (generation !== this.#generation) return;
        this.#heartbeat.received();
        if (frame) this.#onFrame(frame);
        else this.#events.emit('error', new RtmError('invalid_request', 'the server sent a frame that is not a JSON object'));
      },
      closed: (code, reason, retryAfter) => this.#onClose(generation, code, reason, retryAfter),
    };
  }

  /** Opens the connection on the current transport (connector.ts). */
  #open(token: string, generation: number): void {
    try {
      this.#link = this.#connector.open(token, this.#handlers(generation));
    } catch (error) {
      return this.#terminate(asRtmError(error, 'invalid_request'), {});
    }
    this.#handshakeTimer.set(HANDSHAKE_TIMEOUT_MS, () => this.#drop('no connected frame in time'));
  }

  /** The probe's WebSocket said `connected`: the client moves to it, and the SSE session ends. */
  #adopt(socket: WebSocketLike, frame: Record<string, unknown>): void {
    if (this.#state === 'closed') return closeSocket(socket, 'client closed');
    const generation = ++this.#generation;
    this.#connectionLost();
    this.#retryTimer.clear();
    this.#retryAt = undefined;
    this.#link = this.#connector.wrap(socket, this.#handlers(generation));
    if (this.#state !== 'connected') this.#setState('connecting', {});
    this.#up(frame);
  }

  #onFrame(frame: Record<string, unknown>): void {
    const channelId = typeof frame.channelId === 'string' ? frame.channelId : undefined;
    const channel = channelId === undefined ? undefined : this.#channels.get(channelId);
    if (routeSubscriptionFrame(frame, channel, this.inbox)) return;
    switch (frame.op) {
      case 'connected':
        if (this.#state === 'connecting') this.#up(frame);
        return;
      case 'ack':
        return this.#publisher.onAck(frame);
      case 'error':
        return this.#onError(frame, channel);
      case 'authenticated':
      case 'pong':
        this.#requests.answer(frame.ref, frame);
        return;
      default:
        return;
    }
  }

  /** The connection is up (`connected`): state, timers, token renewal, then every channel, the inbox and the queue. */
  #up(frame: Record<string, unknown>): void {
    this.#handshakeTimer.clear();
    if (this.#link) this.#connector.connected(this.#link);
    this.#suspension.up();
    this.#retryAfterHint = undefined;
    this.#connectionId = str(frame.connectionId);
    this.#userId = str(frame.userId);
    this.#stableTimer.set(STABLE_AFTER_MS, () => this.#backoff.reset());
    this.#heartbeat.start();
    this.#tokens.connected(typeof frame.expiresAt === 'string' ? Date.parse(frame.expiresAt) : NaN);
    this.#setState('connected', {});
    if ((this.#state as ConnectionState) !== 'connected') return; // a state listener closed the client
    this.inbox.connected();
    for (const channel of this.#channels.values()) channel.connected();
    this.#publisher.flush();
  }

  #onClose(generation: number, code: number, reason: string, retryAfter?: number): void {
    if (generation !== this.#generation) return;
    this.#generation += 1;
    const wasConnected = this.#state === 'connected';
    const link = this.#link;
    this.#connectionLost();
    if (retryAfter !== undefined) this.#retryAfterHint = retryAfter;
    // a spent monthly quota is not retried: reconnecting cannot succeed before `resetsAt`
    const quota = quotaRefusal(code, reason);
    if (code === 4400 || code === 4403 || quota) {
      const error = quota ?? new RtmError(code === 4403 ? 'forbidden' : 'invalid_request', reason || `closed with ${code}`);
      this.#events.emit('error', error);
      this.#terminate(error, { code, reason });
      return;
    }
    if (!wasConnected && link && this.#connector.closedEarly(link, code)) {
      // WebSockets do not get through: SSE at once
      this.#scheduleRetry(0, { code, ...(reason ? { reason } : {}) });
      return;
    }
    let delay: number;
    if (code === 4401) {
      // the token expired while connected, or a remembered token was refused: a new one, at once;
      // a token fresh from getToken that is refused waits like any failure
      this.#tokens.refused();
      delay = wasConnected || !this.#tokens.fresh ? 0 : this.#backoff.next();
    } else {
      delay = this.#backoff.next();
      if (code === 4429) delay = Math.max(delay, (this.#retryAfterHint ?? 1) * 1000);
    }
    this.#retryAfterHint = undefined;
    this.#scheduleRetry(delay, { code, ...(reason ? { reason } : {}) });
  }

  /** Abandons the current connection as if it had closed (no `connected` in time, no answer to a ping). */
  #drop(reason: string): void {
    if (this.#link) this.#onClose(this.#generation, 1006, reason);
  }

  /** Everything tied to the lost connection is reset; what must survive it is kept for the next one. */
  #connectionLost(): void {
    this.#link?.close();
    this.#link = undefined;
    this.#connectionId = undefined;
    this.#handshakeTimer.clear();
    this.#heartbeat.stop();
    this.#stableTimer.clear();
    this.#tokens.connectionLost();
    this.#requests.clear();
    this.#publisher.connectionLost();
    this.inbox.connectionLost();
    for (const channel of this.#channels.values()) channel.connectionLost();
  }

  #scheduleRetry(delay: number, info: { code?: number; reason?: string }): void {
    this.#suspension.down();
    this.#retryAt = this.#clock.now() + delay;
    this.#retryTimer.set(delay, () => void this.#attempt());
    this.#setState(this.#suspension.suspended ? 'suspended' : 'disconnected', { ...info, retryInMs: delay });
  }

  #enterSuspended(): void {
    if (this.#state === 'connected' || this.#state === 'closed') return;
    this.#suspension.suspend();
    this.#publisher.rejectAll((entry) => this.#suspension.errorFor(entry));
    if (this.#state === 'disconnected') {
      const retryInMs = this.#retryAt === undefined ? undefined : Math.max(0, this.#retryAt - this.#clock.now());
      this.#setState('suspended', retryInMs === undefined ? {} : { retryInMs });
    }
  }

  #terminate(error: RtmError, info: { code?: number; reason?: string }): void {
    if (this.#state === 'closed' && !this.#link) return;
    this.#generation += 1;
    this.#connector.stop();
    this.#connectionLost();
    this.#retryTimer.clear();
    this.#suspension.stop();
    this.#retryAt = undefined;
    this.#offNetworkEvents?.();
    this.#offNetworkEvents = undefined;
    this.#publisher.rejectAll(() => error);
    this.inbox.clientClosed(error);
    for (const channel of this.#channels.values()) channel.clientClosed(error);
    this.#setState('closed', info);
  }

  #setState(state: ConnectionState, info: Omit<StateChange, 'previous'>): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    this.#events.emit('state', state, { previous, ...info });
  }

  /** Sends a frame on the open connection (on a WebSocket paced: frames wait their turn in order). */
  #send(frame: Record<string, unknown>): void {
    if (this.#state === 'connected') this.#link?.send(frame);
  }

  /** Sends a request frame (a new `ref`); `answered` gets the frame answering its ref, `refused` its `error`. */
  #request(frame: Record<string, unknown>, answered: (frame: Record<string, unknown>) => void, refused: (error: RtmError) => void): void {
    this.#send({ ...frame, ref: this.#requests.add(answered, refused) });
  }

  /** Browsers announce when the network comes back: retry at once instead of waiting out the backoff. */
  #listenToNetwork(): void {
    this.#offNetworkEvents ??= onNetworkBack(() => {
      if ((this.#state === 'disconnected' || this.#state === 'suspended') && this.#retryTimer.pending) void this.#attempt();
    });
  }

  /** An `error` frame goes to what its ref names; one with no owner is the client's `error` event. */
  #onError(frame: Record<string, unknown>, channel: Channel | undefined): void {
    const error = errorOf(frame);
    if (error.retryAfter !== undefined) this.#retryAfterHint = error.retryAfter;
    const { ref } = frame;
    const claimed =
      ref !== undefined &&
      (this.#publisher.onError(ref, error) || channel?.onError(ref, error) || this.inbox.onError(ref, error) || this.#requests.refuse(ref, error));
    if (!claimed) this.#events.emit('error', error);
  }
}
