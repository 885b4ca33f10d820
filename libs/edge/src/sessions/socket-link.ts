/**
 * One accepted socket's rules, the same for the channel, inbox and logs sockets:
 * - sending: frames are JSON; more than `bufferLimit` bytes queued closes it as a slow consumer;
 *   it is also counted in the gateway's SendBudget, which may shed it as the slowest;
 * - receiving: every frame (and ws-level ping, answered here once admitted) passes `admit`, the
 *   socket's inbound rate (frames/s and bytes/s): over it, an `error {code:"rate_limited"}` frame
 *   then 4429;
 * - deadlines: the handshake must reach `established()` within `handshakeMs` (else 4503); a token
 *   closes the socket at its expiry (4401, `expireAt`); a peer that has not answered the previous
 *   heartbeat ping is reset (it reads nothing, so a close frame would never reach it). These run on
 *   one timer for the whole process (sessions/deadlines.ts), not a Node timer per socket;
 * - closing: a close whose handshake the peer has not finished within `closeGraceMs` ends in a TCP
 *   reset, so a peer that does not read cannot hold its queued bytes (ours and the kernel's).
 * Close codes and reasons come from SOCKET_CLOSE (sockets/close-codes.ts).
 *
 * Memory: a gateway holds tens of thousands of idle sockets, so what a link keeps per socket is
 * counted (docs/benchmarks.md, "Multiplexed socket"): ws's events go to shared listeners that
 * find the link on the socket, its timed rules are entries of the shared Deadlines, its options
 * object is its route's, and it keeps no closure of its own.
 */
import type { Socket } from 'node:net';
import type { RawData, WebSocket } from 'ws';
import { newId } from '@rtm/db';
import type { UserClaims } from '@rtm/auth';
import { InboundLimit, type InboundRates } from '../sockets/inbound-limit.ts';
import { SOCKET_CLOSE, type Closing } from '../sockets/close-codes.ts';
import type { GatewayWebSocket } from '../sockets/gateway-web-socket.ts';
import type { SendBudget } from './send-budget.ts';
import { releaseLink, type FrameText, type Link, type TokenWatch } from './link.ts';
import { Deadline, Deadlines, LinkClock } from './deadlines.ts';

const OPEN = 1;
const CLOSED = 3;

export interface LinkOptions extends InboundRates {
  bufferLimit: number;
  heartbeatMs: number;
  handshakeMs: number;
  closeGraceMs: number;
}

/**
 * What a route keeps per accepted socket and the link calls: its frames (when the route takes
 * them through the link) and its close. One object per socket, so no closure per socket is needed.
 */
export interface LinkSession {
  onMessage(data: RawData, isBinary: boolean): void;
  onClose(code: number): void;
}

/** Told when any socket of a route closes (one object per route, not per socket). */
export interface LinkGroup {
  closed(link: SocketLink): void;
}

export type { FrameText, TokenWatch } from './link.ts';
/** A Buffer is sent as a text frame (ws would call it binary). */
const AS_TEXT = { binary: false } as const;

export function sizeOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return (data as Buffer | ArrayBuffer).byteLength;
}

// The timed rules of every socket, on one timer for the whole process (sessions/deadlines.ts):
// a Node timer per socket and rule would cost ~200 bytes of heap each. An open socket has one
// entry, due at the earliest of its heartbeat, handshake deadline and token expiry; a closing one
// gets a second for its close grace.
const RULES = 0;
const GRACE = 1;
const deadlines = new Deadlines<SocketLink>((link, kind) => link.due(kind));

// ws's events of every socket go to these shared listeners (`this` is the socket, its link is
// `socket.link`) instead of closures made per socket.
const linkOf = (socket: WebSocket): SocketLink => (socket as GatewayWebSocket).link!;
function onError(this: WebSocket): void {
  // ws has already closed the socket with the matching code (4400 for protocol refusals, see
  // GatewayWebSocket), or it is gone (a reset): it ends in 'close'. Unhandled, 'error' would take
  // the process down; anything still open here must not stay open unattended.
  if (this.readyState === OPEN) this.terminate();
}
function onPong(this: WebSocket): void {
  linkOf(this).alive = true;
}
// pings count against the inbound rate like any frame, and are answered only once admitted (ws's
// own answering, autoPong, is off: the gateway's http/public-app.ts)
function onPing(this: WebSocket, data: Buffer): void {
  if (linkOf(this).admit(data) && this.readyState === OPEN) this.pong(data);
}
function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
  linkOf(this).session?.onMessage(data, isBinary);
}
function onClose(this: WebSocket, code: number): void {
  const link = linkOf(this);
  link.stop();
  link.group?.closed(link);
  link.session?.onClose(code);
}
function uncork(link: SocketLink): void {
  link.uncork();
}

/** A WebSocket under a connection (the Link every endpoint's logic uses: sessions/link.ts). */
export class SocketLink implements Link {
  readonly socketId = newId('sock');
  /** The environment it belongs to once authenticated (sessions.admit): its share of the send budget. */
  environmentId = '';
  /** Its route's session: fed the socket's frames and close (see `takeFrames`). */
  session: LinkSession | undefined;
  /** Its route, told when it closes. */
  group: LinkGroup | undefined;
  /** The token it is watched under for revocations (TokenSockets), and the index that watches it. */
  claims: UserClaims | undefined;
  tokens: TokenWatch | undefined;
  /** The peer answered the last heartbeat ping. */
  alive = true;
  closed = false;
  private readonly socket: GatewayWebSocket;
  private readonly raw: Socket | undefined;
  private readonly options: LinkOptions;
  private readonly inbound: InboundLimit;
  /** Its heartbeat, handshake deadline and token expiry, as one entry on the process's timer. */
  private readonly clock: LinkClock<SocketLink>;
  private readonly budget: SendBudget;

  /** `options` is shared by every socket of a route (do not change it). */
  constructor(socket: GatewayWebSocket, raw: Socket | undefined, options: LinkOptions, budget: SendBudget) {
    this.socket = socket;
    this.raw = raw;
    this.options = options;
    this.budget = budget;
    this.inbound = new InboundLimit(options, Date.now());
    socket.link = this;
    socket.on('error', onError);
    socket.on('pong', onPong);
    socket.on('ping', onPing);
    socket.on('close', onClose);
    this.clock = new LinkClock(deadlines, new Deadline<SocketLink>(this, RULES), options.handshakeMs, options.heartbeatMs);
    budget.add(this);
  }

  /** Frames reach `session.onMessage` from now on (routes that take them through the link). */
  takeFrames(session: LinkSession): void {
    this.session = session;
    this.socket.on('message', onMessage);
  }

  /** One of its deadlines has come (called by the process's Deadlines). */
  due(kind: number): void {
    if (kind === GRACE) {
      if (this.socket.readyState !== CLOSED) this.reset();
      return;
    }
    if (this.closed) return;
    const due = this.clock.due(Date.now());
    if (due === false) return;
    if (due !== true) return this.closeWith(due);
    // a peer that has not answered the previous ping reads nothing: a close frame would never reach it
    if (!this.alive) return this.reset();
    this.alive = false;
    if (this.socket.readyState === OPEN) this.socket.ping();
  }

  /** Bytes queued in this process for the peer (ws's queue and the TCP socket's writable buffer). */
  get queued(): number {
    return this.socket.bufferedAmount;
  }

  /** The handshake is done (authenticated, access checked, replay started): its deadline is lifted. */
  established(): void {
    if (!this.closed) this.clock.established();
  }

  /** Closes the socket with 4401 when its token expires. */
  expireAt(expiresAt: Date): void {
    if (!this.closed && !this.clock.expireAt(expiresAt)) this.closeWith(SOCKET_CLOSE.tokenExpired);
  }

  /**
   * Counts one received frame against the inbound rate. False when the frame must be dropped: the
   * socket is closed, or the frame was over the rate (then the client is told and closed with 4429).
   */
  admit(data: RawData): boolean {
    if (this.closed) return false;
    if (this.inbound.admit(sizeOf(data), Date.now())) return true;
    this.send({ op: 'error', code: 'rate_limited', reason: SOCKET_CLOSE.rateLimited.reason });
    this.closeWith(SOCKET_CLOSE.rateLimited);
    return false;
  }

  send(frame: object): void {
    this.sendText(JSON.stringify(frame));
  }

  sendText(text: FrameText): void {
    if (this.closed || this.socket.readyState !== OPEN) return;
    if (this.queued > this.options.bufferLimit) return this.shed();
    // frames sent to one socket in one event-loop turn (a fan-out burst, a replay page) leave in
    // one write instead of one syscall each: the writes are most of a fan-out's CPU. Corked bytes
    // count as queued, so every `flushBytes` they go to the kernel at once: a burst must not look
    // like a slow consumer.
    if (this.raw) {
      if (!this.corked) {
        this.corked = true;
        this.raw.cork();
        process.nextTick(uncork, this);
      } else if (this.corkedBytes >= this.flushBytes) {
        this.raw.uncork();
        this.raw.cork();
        this.corkedBytes = 0;
      }
      this.corkedBytes += text.length;
    }
    if (typeof text === 'string') this.socket.send(text);
    else this.socket.send(text, AS_TEXT);
  }

  private corked = false;
  private corkedBytes = 0;
  private get flushBytes(): number {
    return Math.min(64 * 1024, this.options.bufferLimit / 8);
  }
  /** The turn's frames leave in one write (queued by the first `sendText` of the turn). */
  uncork(): void {
    this.corked = false;
    this.corkedBytes = 0;
    this.raw?.uncork();
  }

  /** Resolves once the queue is under half its limit (or the socket closed): replays go at the client's pace. */
  async drained(): Promise<void> {
    const limit = this.options.bufferLimit / 2;
    while (!this.closed && this.queued > limit) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  shed(): void {
    this.closeWith(SOCKET_CLOSE.slowConsumer);
  }

  /** Closes with an entry of the close table (sockets/close-codes.ts): the only way a socket is closed. */
  closeWith({ code, reason }: Closing): void {
    if (this.closed) return;
    this.stop();
    // close reasons are limited to 123 bytes
    const text = Buffer.from(reason, 'utf8')
      .subarray(0, 123)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    try {
      this.socket.close(code, text);
    } catch {
      return this.reset();
    }
    deadlines.set(new Deadline<SocketLink>(this, GRACE), Date.now() + this.options.closeGraceMs);
  }

  /** Drops the connection with a TCP reset: what is queued, here and in the kernel, is freed at once. */
  private reset(): void {
    this.stop();
    if (this.raw && !this.raw.destroyed) this.raw.resetAndDestroy();
    else this.socket.terminate();
  }

  /** Stops every rule of the socket (called when it closes, or as it is closed). Idempotent. */
  stop(): void {
    if (this.closed) return;
    this.closed = true;
    releaseLink(this, this.clock, this.budget);
  }
}
