import { Backoff, backoffDelay } from './backoff.ts';
import { Channel } from './channel.ts';
import { systemClock, Timer, type Clock } from './clock.ts';
import type { Core } from './core.ts';
import { Emitter } from './emitter.ts';
import { asRtmError, RtmError } from './errors.ts';
import type { HttpContext } from './http.ts';
import { CHANNEL_ID } from './ids.ts';
import { Inbox } from './inbox.ts';
import { Outbox, type OutboxEntry } from './outbox.ts';
import { Pacer } from './pacer.ts';
import { renewalDelayMs, tokenExpiryMs, tokenLifetimeMs } from './token.ts';
import type {
  ClientOptions,
  ConnectionState,
  FetchLike,
  Message,
  Notification,
  StateChange,
  WebSocketConstructor,
  WebSocketLike,
} from './types.ts';

export interface ClientEvents {
  state: (state: ConnectionState, change: StateChange) => void;
  error: (error: RtmError) => void;
}

/** A connection that stays up this long resets the reconnect backoff. */
export const STABLE_AFTER_MS = 5_000;
/** `connected` must arrive within this time of opening the socket (the server's handshake deadline is 10 s). */
export const HANDSHAKE_TIMEOUT_MS = 15_000;
/** A ping not answered (by any frame) within this time drops the connection. */
export const PONG_TIMEOUT_MS = 10_000;
/** What the client sends per second at most (the server's defaults are 500 frames and 2 MiB). */
export const SEND_FRAMES_PER_SECOND = 200;
export const SEND_BYTES_PER_SECOND = 1024 * 1024;
/** Renewal retries after a failed getToken or a refused `auth`. */
const OPEN = 1; // WebSocket.OPEN, which Node 20 has no global for
const RENEW_RETRY_INITIAL_MS = 1_000;
const RENEW_RETRY_MAX_MS = 30_000;

const DEFAULTS = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  suspendAfterMs: 60_000,
  maxQueuedPublishes: 100,
  heartbeatMs: 30_000,
};

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
 *   any ──close() / 4400 / 4403──▶ closed (no reconnect until connect())
 *
 * Retries wait a full-jitter exponential backoff (backoff.ts); 4429 waits at least the
 * `retryAfter` of the error frame before it (1 s without one); a 4401 fetches a new token and,
 * when the connection had been up (the token expired), reconnects at once.
 */
export class Client {
  readonly inbox: Inbox;
  readonly #getToken: () => string | Promise<string>;
  readonly #WebSocket: WebSocketConstructor | undefined;
  readonly #socketBase: string;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #retryInitialMs: number;
  readonly #retryMaxMs: number;
  readonly #suspendAfterMs: number;
  readonly #heartbeatMs: number;
  readonly #events = new Emitter<ClientEvents>();
  readonly #outbox: Outbox;
  readonly #channels = new Map<string, Channel>();
  readonly #core: Core;

  #state: ConnectionState;
  #connectionId: string | undefined;
  #userId: string | undefined;
  #socket: WebSocketLike | undefined;
  /** Bumped whenever the current socket is abandoned: events of older sockets are ignored. */
  #generation = 0;
  readonly #backoff: Backoff;
  readonly #retryTimer: Timer;
  readonly #suspendTimer: Timer;
  readonly #stableTimer: Timer;
  readonly #handshakeTimer: Timer;
  readonly #heartbeatTimer: Timer;
  readonly #renewTimer: Timer;
  readonly #flushTimer: Timer;
  readonly #drainTimer: Timer;
  /** Frames waiting for the pacer, oldest first. */
  #outgoing: string[] = [];
  #pacer: Pacer;
  #retryAt: number | undefined;
  #downSince: number | undefined;
  #suspended = false;
  /** retryAfter (s) of the last error frame, for the 4429 that may follow it. */
  #retryAfterHint: number | undefined;
  #framesReceived = 0;
  #pingAtFrame: number | undefined;
  #lastReceivedAt = 0;
  #pausedUntil = 0;

  #token: string | undefined;
  #tokenExpiresAt: number | undefined;
  /** The current token came from getToken for this attempt (a 4401 then means the token is bad). */
  #tokenFresh = false;
  #tokenStale = false;
  #tokenRequest: Promise<string> | undefined;
  readonly #renewBackoff: Backoff;

  #nextRef = 1;
  readonly #requests = new Map<number, { resolve(frame: Record<string, unknown>): void; reject(error: RtmError): void }>();
  #offNetworkEvents: (() => void) | undefined;

  constructor(options: ClientOptions) {
    if (!options || typeof options.getToken !== 'function') throw new RtmError('invalid_request', 'getToken must be a function');
    this.#getToken = options.getToken;
    this.#WebSocket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    const base = parseBaseUrl(options.url);
    this.#socketBase = base.socket;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#retryInitialMs = positive(options.reconnect?.initialDelayMs, DEFAULTS.initialDelayMs, 'reconnect.initialDelayMs');
    this.#retryMaxMs = positive(options.reconnect?.maxDelayMs, DEFAULTS.maxDelayMs, 'reconnect.maxDelayMs');
    this.#suspendAfterMs = positive(options.reconnect?.suspendAfterMs, DEFAULTS.suspendAfterMs, 'reconnect.suspendAfterMs');
    this.#heartbeatMs = positive(options.heartbeatMs, DEFAULTS.heartbeatMs, 'heartbeatMs');
    this.#outbox = new Outbox(positive(options.maxQueuedPublishes, DEFAULTS.maxQueuedPublishes, 'maxQueuedPublishes'));
    this.#backoff = new Backoff(this.#retryInitialMs, this.#retryMaxMs, this.#random);
    this.#renewBackoff = new Backoff(RENEW_RETRY_INITIAL_MS, RENEW_RETRY_MAX_MS, this.#random);
    const timer = () => new Timer(this.#clock);
    this.#retryTimer = timer();
    this.#suspendTimer = timer();
    this.#stableTimer = timer();
    this.#handshakeTimer = timer();
    this.#heartbeatTimer = timer();
    this.#renewTimer = timer();
    this.#flushTimer = timer();
    this.#drainTimer = timer();
    this.#pacer = new Pacer(this.#clock.now(), SEND_FRAMES_PER_SECOND, SEND_BYTES_PER_SECOND);

    const http: HttpContext = {
      baseUrl: base.http,
      fetch: options.fetch as FetchLike | undefined,
      clock: this.#clock,
      random: this.#random,
      token: (fresh) => this.#httpToken(fresh),
    };
    this.#core = {
      clock: this.#clock,
      random: this.#random,
      retryInitialMs: this.#retryInitialMs,
      retryMaxMs: this.#retryMaxMs,
      http,
      isConnected: () => this.#state === 'connected',
      nextRef: () => this.#nextRef++,
      send: (frame) => this.#send(frame),
      enqueue: (kind, channelId, frame, ephemeral) => this.#enqueue(kind, channelId, frame, ephemeral),
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
    this.#suspended = false;
    this.#downSince = undefined;
    this.#backoff.reset();
    this.#listenToNetwork();
    void this.#attempt();
  }

  /** Closes for good: no reconnect, pending publishes reject with `closed`. */
  close(): void {
    this.#terminate(new RtmError('closed', 'the client was closed'), {});
  }

  // ---- connection ----

  async #attempt(): Promise<void> {
    this.#retryTimer.clear();
    this.#retryAt = undefined;
    const generation = ++this.#generation;
    this.#markDown();
    this.#setState('connecting', {});
    let token: string;
    try {
      token = await this.#connectToken();
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#events.emit('error', asRtmError(error, 'unauthorized'));
      this.#scheduleRetry(this.#backoff.next(), { reason: 'getToken failed' });
      return;
    }
    if (generation !== this.#generation) return;
    if (!this.#WebSocket) {
      this.#terminate(new RtmError('invalid_request', 'no WebSocket: pass the WebSocket option (in Node 20, ws)'), {});
      return;
    }
    let socket: WebSocketLike;
    try {
      socket = new this.#WebSocket(`${this.#socketBase}?token=${encodeURIComponent(token)}`);
    } catch (error) {
      this.#terminate(asRtmError(error, 'invalid_request'), {});
      return;
    }
    this.#socket = socket;
    socket.onmessage = (event: { data: unknown }) => {
      if (generation === this.#generation) this.#onData(event.data);
    };
    socket.onclose = (event: { code?: number; reason?: string }) => {
      this.#onClose(generation, event?.code ?? 1006, event?.reason ?? '');
    };
    // a failed socket also closes; the close event carries what there is to know
    socket.onerror = () => {};
    this.#handshakeTimer.set(HANDSHAKE_TIMEOUT_MS, () => this.#drop('no connected frame in time'));
  }

  #onData(data: unknown): void {
    this.#framesReceived += 1;
    this.#lastReceivedAt = this.#clock.now();
    let frame: unknown;
    try {
      frame = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer));
    } catch {
      this.#events.emit('error', new RtmError('invalid_request', 'the server sent a frame that is not JSON'));
      return;
    }
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return;
    this.#onFrame(frame as Record<string, unknown>);
  }

  #onFrame(frame: Record<string, unknown>): void {
    const op = frame.op;
    const channelId = typeof frame.channelId === 'string' ? frame.channelId : undefined;
    const channel = channelId === undefined ? undefined : this.#channels.get(channelId);
    switch (op) {
      case undefined:
        channel?.onMessage(frame as unknown as Message);
        return;
      case 'connected':
        this.#onConnected(frame);
        return;
      case 'subscribed':
        channel?.onSubscribed(frame.ref, typeof frame.lastSeq === 'number' ? frame.lastSeq : 0);
        return;
      case 'unsubscribed':
        channel?.onUnsubscribed(frame.ref, str(frame.code), str(frame.reason));
        return;
      case 'retract':
        channel?.onRetract({ channelId: channelId!, id: String(frame.id), seq: Number(frame.seq), ...(typeof frame.reason === 'string' ? { reason: frame.reason } : {}) });
        return;
      case 'skip':
        if (typeof frame.seq === 'number') channel?.onSkip(frame.seq);
        return;
      case 'presence':
        channel?.onPresence(presenceOf(frame));
        return;
      case 'occupancy':
        if (typeof frame.connections === 'number' && typeof frame.users === 'number') channel?.onOccupancy({ connections: frame.connections, users: frame.users });
        return;
      case 'notification':
        this.inbox.onNotification(frame as unknown as Notification);
        return;
      case 'inbox-subscribed':
        this.inbox.onSubscribed(frame.ref);
        return;
      case 'inbox-unsubscribed':
        this.inbox.onUnsubscribed(frame.ref);
        return;
      case 'ack':
        this.#onAck(frame);
        return;
      case 'error':
        this.#onError(frame, channel);
        return;
      case 'authenticated':
      case 'pong': {
        const request = typeof frame.ref === 'number' ? this.#requests.get(frame.ref) : undefined;
        if (request) {
          this.#requests.delete(frame.ref as number);
          request.resolve(frame);
        }
        return;
      }
      default:
        return;
    }
  }

  #onConnected(frame: Record<string, unknown>): void {
    if (this.#state !== 'connecting') return;
    this.#handshakeTimer.clear();
    this.#suspendTimer.clear();
    this.#suspended = false;
    this.#downSince = undefined;
    this.#retryAfterHint = undefined;
    this.#connectionId = str(frame.connectionId);
    this.#userId = str(frame.userId);
    const expiresAt = typeof frame.expiresAt === 'string' ? Date.parse(frame.expiresAt) : NaN;
    if (!Number.isNaN(expiresAt)) this.#tokenExpiresAt = expiresAt;
    this.#stableTimer.set(STABLE_AFTER_MS, () => this.#backoff.reset());
    this.#pingAtFrame = undefined;
    this.#heartbeatTimer.set(this.#heartbeatMs, () => this.#heartbeat());
    this.#scheduleRenewal();
    this.#setState('connected', {});
    if ((this.#state as ConnectionState) !== 'connected') return; // a state listener closed the client
    this.inbox.connected();
    for (const channel of this.#channels.values()) channel.connected();
    this.#flush();
  }

  #onClose(generation: number, code: number, reason: string): void {
    if (generation !== this.#generation) return;
    this.#generation += 1;
    const wasConnected = this.#state === 'connected';
    this.#connectionLost();
    if (code === 4400 || code === 4403) {
      const error = new RtmError(code === 4403 ? 'forbidden' : 'invalid_request', reason || `closed with ${code}`);
      this.#events.emit('error', error);
      this.#terminate(error, { code, reason });
      return;
    }
    let delay: number;
    if (code === 4401) {
      // the token expired while connected, or a remembered token was refused: a new one, at once;
      // a token fresh from getToken that is refused waits like any failure
      this.#tokenStale = true;
      delay = wasConnected || !this.#tokenFresh ? 0 : this.#backoff.next();
    } else {
      delay = this.#backoff.next();
      if (code === 4429) delay = Math.max(delay, (this.#retryAfterHint ?? 1) * 1000);
    }
    this.#retryAfterHint = undefined;
    this.#scheduleRetry(delay, { code, ...(reason ? { reason } : {}) });
  }

  /** Abandons the current socket as if it had closed (no `connected` in time, no answer to a ping). */
  #drop(reason: string): void {
    const socket = this.#socket;
    if (!socket) return;
    this.#onClose(this.#generation, 1006, reason);
    try {
      socket.close(1000, reason);
    } catch {
      // already closing
    }
  }

  /** Everything tied to the lost connection is reset; what must survive it is kept for the next one. */
  #connectionLost(): void {
    this.#socket = undefined;
    this.#connectionId = undefined;
    this.#handshakeTimer.clear();
    this.#heartbeatTimer.clear();
    this.#stableTimer.clear();
    this.#renewTimer.clear();
    this.#flushTimer.clear();
    this.#drainTimer.clear();
    this.#outgoing = [];
    this.#requests.clear();
    this.#outbox.connectionLost();
    this.inbox.connectionLost();
    for (const channel of this.#channels.values()) channel.connectionLost();
  }

  /** Starts the suspension clock when the client has just lost (or not yet had) a connection. */
  #markDown(): void {
    if (this.#downSince !== undefined) return;
    this.#downSince = this.#clock.now();
    this.#suspendTimer.set(this.#suspendAfterMs, () => this.#enterSuspended());
  }

  #scheduleRetry(delay: number, info: { code?: number; reason?: string }): void {
    this.#markDown();
    this.#retryAt = this.#clock.now() + delay;
    this.#retryTimer.set(delay, () => void this.#attempt());
    this.#setState(this.#suspended ? 'suspended' : 'disconnected', { ...info, retryInMs: delay });
  }

  #enterSuspended(): void {
    if (this.#state === 'connected' || this.#state === 'closed') return;
    this.#suspended = true;
    const waited = this.#suspendAfterMs;
    this.#outbox.rejectAll(
      (entry) =>
        new RtmError(
          'unavailable',
          entry.sentOnce
            ? `no connection for ${waited} ms; it was sent before the connection was lost, so it may have been persisted`
            : `no connection for ${waited} ms; not sent`,
        ),
    );
    if (this.#state === 'disconnected') {
      const retryInMs = this.#retryAt === undefined ? undefined : Math.max(0, this.#retryAt - this.#clock.now());
      this.#setState('suspended', retryInMs === undefined ? {} : { retryInMs });
    }
  }

  #terminate(error: RtmError, info: { code?: number; reason?: string }): void {
    if (this.#state === 'closed' && !this.#socket) return;
    const socket = this.#socket;
    this.#generation += 1;
    this.#connectionLost();
    this.#retryTimer.clear();
    this.#suspendTimer.clear();
    this.#retryAt = undefined;
    this.#offNetworkEvents?.();
    this.#offNetworkEvents = undefined;
    if (socket) {
      try {
        socket.close(1000, 'client closed');
      } catch {
        // already closing
      }
    }
    this.#outbox.rejectAll(() => error);
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

  /** Sends a frame on the open connection, paced (frames wait their turn in order). */
  #send(frame: Record<string, unknown>): void {
    if (!this.#socket || this.#state !== 'connected') return;
    this.#outgoing.push(JSON.stringify(frame));
    if (this.#outgoing.length === 1) this.#drain();
  }

  #drain(): void {
    const socket = this.#socket;
    while (socket && this.#outgoing.length > 0) {
      const text = this.#outgoing[0]!;
      const wait = this.#pacer.take(utf8Length(text), this.#clock.now());
      if (wait > 0) {
        this.#drainTimer.set(wait, () => this.#drain());
        return;
      }
      // a closing socket: browsers drop the frame with a console error instead of throwing;
      // its close event requeues what was in flight
      if (socket.readyState !== OPEN) return;
      this.#outgoing.shift();
      try {
        socket.send(text);
      } catch {
        return;
      }
    }
  }

  /** Browsers announce when the network comes back: retry at once instead of waiting out the backoff. */
  #listenToNetwork(): void {
    const target = globalThis as { addEventListener?: (name: string, fn: () => void) => void; removeEventListener?: (name: string, fn: () => void) => void };
    if (this.#offNetworkEvents || typeof target.addEventListener !== 'function' || typeof target.removeEventListener !== 'function') return;
    const online = () => {
      if ((this.#state === 'disconnected' || this.#state === 'suspended') && this.#retryTimer.pending) void this.#attempt();
    };
    target.addEventListener('online', online);
    this.#offNetworkEvents = () => target.removeEventListener!('online', online);
  }

  #heartbeat(): void {
    if (this.#state !== 'connected') return;
    if (this.#pingAtFrame !== undefined) {
      if (this.#framesReceived === this.#pingAtFrame) {
        this.#drop(`no answer to a ping within ${PONG_TIMEOUT_MS} ms`);
        return;
      }
      this.#pingAtFrame = undefined;
    }
    const idle = this.#clock.now() - this.#lastReceivedAt;
    if (idle >= this.#heartbeatMs) {
      this.#pingAtFrame = this.#framesReceived;
      const ref = this.#nextRef++;
      this.#requests.set(ref, { resolve: () => {}, reject: () => {} });
      this.#send({ op: 'ping', ref });
      this.#heartbeatTimer.set(PONG_TIMEOUT_MS, () => this.#heartbeat());
    } else {
      this.#heartbeatTimer.set(this.#heartbeatMs - idle, () => this.#heartbeat());
    }
  }

  // ---- tokens ----

  /** getToken, one call at a time. */
  #fetchToken(): Promise<string> {
    if (this.#tokenRequest) return this.#tokenRequest;
    const request = Promise.resolve()
      .then(() => this.#getToken())
      .then((token) => {
        if (typeof token !== 'string' || token.length === 0) throw new RtmError('unauthorized', 'getToken returned no token');
        return token;
      });
    this.#tokenRequest = request;
    const done = () => {
      if (this.#tokenRequest === request) this.#tokenRequest = undefined;
    };
    request.then(done, done);
    return request;
  }

  /** The token to connect with: the current one while it is good, else a new one. */
  async #connectToken(): Promise<string> {
    const now = this.#clock.now();
    const usable =
      this.#token !== undefined && !this.#tokenStale && (this.#tokenExpiresAt === undefined || this.#tokenExpiresAt - now > 2 * RENEW_RETRY_INITIAL_MS);
    if (usable) {
      this.#tokenFresh = false;
      return this.#token!;
    }
    const token = await this.#fetchToken();
    this.#adoptToken(token);
    this.#tokenFresh = true;
    return token;
  }

  async #httpToken(fresh: boolean): Promise<string> {
    if (!fresh && this.#token !== undefined && !this.#tokenStale) {
      if (this.#tokenExpiresAt === undefined || this.#tokenExpiresAt > this.#clock.now()) return this.#token;
    }
    const token = await this.#fetchToken();
    if (this.#state !== 'connected') this.#adoptToken(token);
    return token;
  }

  #adoptToken(token: string): void {
    this.#token = token;
    this.#tokenStale = false;
    this.#tokenExpiresAt = tokenExpiryMs(token);
  }

  #scheduleRenewal(): void {
    if (this.#tokenExpiresAt === undefined) return;
    const lifetime = this.#token === undefined ? undefined : tokenLifetimeMs(this.#token);
    const delay = renewalDelayMs(this.#tokenExpiresAt, this.#clock.now(), lifetime);
    this.#renewTimer.set(delay, () => void this.#renew());
  }

  /** Renews the token in place with `{op:"auth"}`; failures retry with backoff until the server's 4401. */
  async #renew(): Promise<void> {
    const generation = this.#generation;
    const retry = (error: RtmError) => {
      if (generation !== this.#generation || this.#state !== 'connected') return;
      this.#events.emit('error', error);
      this.#renewTimer.set(this.#renewBackoff.next(), () => void this.#renew());
    };
    let token: string;
    try {
      token = await this.#fetchToken();
    } catch (error) {
      retry(asRtmError(error, 'unauthorized'));
      return;
    }
    if (generation !== this.#generation || this.#state !== 'connected') {
      // the connection went meanwhile: the next one starts with this token
      this.#adoptToken(token);
      return;
    }
    const ref = this.#nextRef++;
    this.#requests.set(ref, {
      resolve: (frame) => {
        const expiresAt = typeof frame.expiresAt === 'string' ? Date.parse(frame.expiresAt) : NaN;
        const previous = this.#tokenExpiresAt;
        this.#token = token;
        this.#tokenStale = false;
        if (!Number.isNaN(expiresAt)) this.#tokenExpiresAt = expiresAt;
        if (Number.isNaN(expiresAt) || (previous !== undefined && expiresAt <= previous)) {
          retry(new RtmError('unauthorized', 'getToken returned a token that does not expire later than the current one'));
          return;
        }
        this.#renewBackoff.reset();
        this.#scheduleRenewal();
      },
      reject: retry,
    });
    this.#send({ op: 'auth', ref, token });
  }

  // ---- publishes ----

  #enqueue<Result>(kind: 'publish' | 'retract', channelId: string, frame: Record<string, unknown>, ephemeral: boolean): Promise<Result> {
    if (this.#state === 'closed') return Promise.reject(new RtmError('closed', 'the client is closed'));
    if (this.#suspended) {
      return Promise.reject(new RtmError('unavailable', `suspended: no connection for more than ${this.#suspendAfterMs} ms`));
    }
    return new Promise<Result>((resolve, reject) => {
      const online = this.#state === 'connected' && this.#clock.now() >= this.#pausedUntil;
      try {
        this.#outbox.add<Result>({ kind, channelId, frame, ephemeral, resolve, reject }, online);
      } catch (error) {
        reject(error);
        return;
      }
      this.#flush();
    });
  }

  /** Sends every queued publish, oldest first, unless a rate limit asked to pause. */
  #flush(): void {
    if (this.#state !== 'connected') return;
    const wait = this.#pausedUntil - this.#clock.now();
    if (wait > 0) {
      if (!this.#flushTimer.pending) this.#flushTimer.set(wait, () => this.#flush());
      return;
    }
    for (const entry of this.#outbox.takeQueued(() => this.#nextRef++)) {
      this.#send({ ...entry.frame, ref: entry.ref });
    }
  }

  #onAck(frame: Record<string, unknown>): void {
    const entry = this.#outbox.bySentRef(frame.ref);
    if (!entry) return;
    this.#outbox.remove(entry);
    entry.resolve(ackResult(entry, frame));
  }

  #onError(frame: Record<string, unknown>, channel: Channel | undefined): void {
    const retryAfter = typeof frame.retryAfter === 'number' && frame.retryAfter >= 0 ? frame.retryAfter : undefined;
    const error = new RtmError(str(frame.code) ?? 'internal', str(frame.reason), { retryAfter });
    if (retryAfter !== undefined) this.#retryAfterHint = retryAfter;
    const ref = frame.ref;
    if (ref !== undefined) {
      const entry = this.#outbox.bySentRef(ref);
      if (entry) return this.#onRefused(entry, error);
      if (channel?.onError(ref, error)) return;
      if (this.inbox.onError(ref, error)) return;
      const request = typeof ref === 'number' ? this.#requests.get(ref) : undefined;
      if (request) {
        this.#requests.delete(ref as number);
        request.reject(error);
        return;
      }
    }
    this.#events.emit('error', error);
  }

  /** A publish or retraction was refused: retry what is safe to retry, reject the rest. */
  #onRefused(entry: OutboxEntry, error: RtmError): void {
    if (error.code === 'rate_limited') {
      this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + (error.retryAfter ?? 1) * 1000);
      if (this.#outbox.requeue(entry, error)) this.#flush();
      return;
    }
    if (error.code === 'unavailable') {
      // the owner did not answer in time: the outcome is unknown, and the same key makes a retry safe
      if (this.#outbox.requeue(entry, error)) {
        const delay = Math.max((error.retryAfter ?? 0) * 1000, backoffDelay(entry.refusals, this.#retryInitialMs, this.#retryMaxMs, this.#random));
        this.#flushTimer.set(delay, () => this.#flush());
      }
      return;
    }
    this.#outbox.remove(entry);
    entry.reject(error);
  }
}

function ackResult(entry: OutboxEntry, frame: Record<string, unknown>): unknown {
  if (entry.kind === 'retract') return { id: frame.id, seq: frame.seq };
  const result: Record<string, unknown> = { id: frame.id, seq: frame.seq };
  if (typeof frame.timestamp === 'number') result.timestamp = frame.timestamp;
  if (frame.ephemeral === true) result.ephemeral = true;
  return result;
}

/** The UTF-8 size of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * A presence frame's joins and leaves: `{joined, left}` (one frame per channel and interval), or
 * the single-change `{userId, online}` of older servers.
 */
function presenceOf(frame: Record<string, unknown>): { joined: string[]; left: string[] } {
  const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  if (Array.isArray(frame.joined) || Array.isArray(frame.left)) return { joined: ids(frame.joined), left: ids(frame.left) };
  if (typeof frame.userId !== 'string') return { joined: [], left: [] };
  return frame.online === true ? { joined: [frame.userId], left: [] } : { joined: [], left: [frame.userId] };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new RtmError('invalid_request', `${name} must be a positive number`);
  return value;
}

/** The socket URL (`ws(s)://…/v1/connect`) and the HTTP base of the realtime edge. */
export function parseBaseUrl(input: string): { socket: string; http: string } {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new RtmError('invalid_request', `url is not a URL: ${JSON.stringify(input)}`);
  }
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  if (!secure && url.protocol !== 'http:' && url.protocol !== 'ws:') {
    throw new RtmError('invalid_request', 'url must be http(s) or ws(s)');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return {
    socket: `${secure ? 'wss' : 'ws'}://${url.host}${path}/v1/connect`,
    http: `${secure ? 'https' : 'http'}://${url.host}${path}`,
  };
}
