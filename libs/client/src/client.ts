import { Backoff } from './backoff.ts';
import { Channel } from './channel.ts';
import { systemClock, Timer, type Clock } from './clock.ts';
import type { Core } from './core.ts';
import { Emitter } from './emitter.ts';
import { asRtmError, RtmError } from './errors.ts';
import type { HttpContext } from './http.ts';
import { CHANNEL_ID } from './ids.ts';
import { Inbox } from './inbox.ts';
import { PacedSender } from './paced-sender.ts';
import { Publisher } from './publisher.ts';
import { TokenKeeper } from './token-keeper.ts';
import { parseBaseUrl, presenceOf, str } from './frames.ts';
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
  readonly #WebSocket: WebSocketConstructor | undefined;
  readonly #socketBase: string;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #retryInitialMs: number;
  readonly #retryMaxMs: number;
  readonly #suspendAfterMs: number;
  readonly #heartbeatMs: number;
  readonly #events = new Emitter<ClientEvents>();
  readonly #publisher: Publisher;
  readonly #tokens: TokenKeeper;
  readonly #sender: PacedSender;
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
  #retryAt: number | undefined;
  #downSince: number | undefined;
  #suspended = false;
  /** retryAfter (s) of the last error frame, for the 4429 that may follow it. */
  #retryAfterHint: number | undefined;
  #framesReceived = 0;
  #pingAtFrame: number | undefined;
  #lastReceivedAt = 0;

  #nextRef = 1;
  readonly #requests = new Map<number, { resolve(frame: Record<string, unknown>): void; reject(error: RtmError): void }>();
  #offNetworkEvents: (() => void) | undefined;

  constructor(options: ClientOptions) {
    if (!options || typeof options.getToken !== 'function') throw new RtmError('invalid_request', 'getToken must be a function');
    this.#WebSocket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    const base = parseBaseUrl(options.url);
    this.#socketBase = base.socket;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#retryInitialMs = positive(options.reconnect?.initialDelayMs, DEFAULTS.initialDelayMs, 'reconnect.initialDelayMs');
    this.#retryMaxMs = positive(options.reconnect?.maxDelayMs, DEFAULTS.maxDelayMs, 'reconnect.maxDelayMs');
    this.#suspendAfterMs = positive(options.reconnect?.suspendAfterMs, DEFAULTS.suspendAfterMs, 'reconnect.suspendAfterMs');
    this.#heartbeatMs = positive(options.heartbeatMs, DEFAULTS.heartbeatMs, 'heartbeatMs');
    this.#publisher = new Publisher({
      maxQueued: positive(options.maxQueuedPublishes, DEFAULTS.maxQueuedPublishes, 'maxQueuedPublishes'),
      clock: this.#clock,
      random: this.#random,
      retry: { initialMs: this.#retryInitialMs, maxMs: this.#retryMaxMs },
      suspendAfterMs: this.#suspendAfterMs,
      host: {
        isConnected: () => this.#state === 'connected',
        isClosed: () => this.#state === 'closed',
        isSuspended: () => this.#suspended,
        nextRef: () => this.#nextRef++,
        send: (frame) => this.#send(frame),
      },
    });
    this.#tokens = new TokenKeeper(options.getToken, this.#clock, this.#random, {
      connection: () => this.#generation,
      isConnected: () => this.#state === 'connected',
      authenticate: (token, answered, refused) => this.#request({ op: 'auth', token }, answered, refused),
      reportError: (error) => this.#events.emit('error', error),
    });
    this.#sender = new PacedSender(this.#clock);
    this.#backoff = new Backoff(this.#retryInitialMs, this.#retryMaxMs, this.#random);
    const timer = () => new Timer(this.#clock);
    this.#retryTimer = timer();
    this.#suspendTimer = timer();
    this.#stableTimer = timer();
    this.#handshakeTimer = timer();
    this.#heartbeatTimer = timer();

    const http: HttpContext = {
      baseUrl: base.http,
      fetch: options.fetch as FetchLike | undefined,
      clock: this.#clock,
      random: this.#random,
      token: (fresh) => this.#tokens.forHttp(fresh),
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
      token = await this.#tokens.forConnect();
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
    this.#sender.attach(socket);
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
        this.#publisher.onAck(frame);
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
    this.#stableTimer.set(STABLE_AFTER_MS, () => this.#backoff.reset());
    this.#pingAtFrame = undefined;
    this.#heartbeatTimer.set(this.#heartbeatMs, () => this.#heartbeat());
    this.#tokens.connected(typeof frame.expiresAt === 'string' ? Date.parse(frame.expiresAt) : NaN);
    this.#setState('connected', {});
    if ((this.#state as ConnectionState) !== 'connected') return; // a state listener closed the client
    this.inbox.connected();
    for (const channel of this.#channels.values()) channel.connected();
    this.#publisher.flush();
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
      this.#tokens.refused();
      delay = wasConnected || !this.#tokens.fresh ? 0 : this.#backoff.next();
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
    this.#tokens.connectionLost();
    this.#sender.detach();
    this.#requests.clear();
    this.#publisher.connectionLost();
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
    this.#publisher.rejectAll(
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

  /** Sends a frame on the open connection, paced (frames wait their turn in order). */
  #send(frame: Record<string, unknown>): void {
    if (!this.#socket || this.#state !== 'connected') return;
    this.#sender.send(JSON.stringify(frame));
  }

  /** Sends a request frame (a new `ref`); `answered` gets the frame answering its ref, `refused` its `error`. */
  #request(frame: Record<string, unknown>, answered: (frame: Record<string, unknown>) => void, refused: (error: RtmError) => void): void {
    const ref = this.#nextRef++;
    this.#requests.set(ref, { resolve: answered, reject: refused });
    this.#send({ ...frame, ref });
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

  #onError(frame: Record<string, unknown>, channel: Channel | undefined): void {
    const retryAfter = typeof frame.retryAfter === 'number' && frame.retryAfter >= 0 ? frame.retryAfter : undefined;
    const error = new RtmError(str(frame.code) ?? 'internal', str(frame.reason), { retryAfter });
    if (retryAfter !== undefined) this.#retryAfterHint = retryAfter;
    const ref = frame.ref;
    if (ref !== undefined) {
      if (this.#publisher.onError(ref, error)) return;
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

}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new RtmError('invalid_request', `${name} must be a positive number`);
  return value;
}
