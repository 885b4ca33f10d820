/**
 * One accepted socket's rules, the same for the channel, inbox and logs sockets:
 * - sending: frames are JSON; more than `bufferLimit` bytes queued closes it as a slow consumer;
 *   it is also counted in the gateway's SendBudget, which may shed it as the slowest;
 * - receiving: every frame (and ws-level ping) passes `admit`, the socket's inbound rate
 *   (frames/s and bytes/s): over it, an `error {code:"rate_limited"}` frame then 4429;
 * - deadlines: the handshake must reach `established()` within `handshakeMs` (else 4503); a token
 *   closes the socket at its expiry (4401, `expireAt`); a peer that has not answered the previous
 *   heartbeat ping is reset (it reads nothing, so a close frame would never reach it);
 * - closing: a close whose handshake the peer has not finished within `closeGraceMs` ends in a TCP
 *   reset, so a peer that does not read cannot hold its queued bytes (ours and the kernel's).
 * Close codes and reasons come from SOCKET_CLOSE (sockets/close-codes.ts).
 */
import type { Socket } from 'node:net';
import type { RawData, WebSocket } from 'ws';
import { newId } from '@rtm/db';
import { InboundLimit, type InboundRates } from '../sockets/inbound-limit.ts';
import { SOCKET_CLOSE, type Closing } from '../sockets/close-codes.ts';
import type { SendBudget, Sheddable } from './send-budget.ts';

const OPEN = 1;
/** setTimeout's longest delay; a later expiry is re-armed. */
const MAX_DELAY = 2 ** 31 - 1;

export interface LinkOptions extends InboundRates {
  bufferLimit: number;
  heartbeatMs: number;
  handshakeMs: number;
  closeGraceMs: number;
}

/**
 * A frame's JSON text, or that text already encoded as UTF-8: a feed encodes a frame once and the
 * same Buffer goes to every socket of the fan-out, instead of each socket measuring and encoding
 * its own copy of the string on the way to the kernel.
 */
export type FrameText = string | Buffer;
/** A Buffer is sent as a text frame (ws would call it binary). */
const AS_TEXT = { binary: false } as const;

export function sizeOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return (data as Buffer | ArrayBuffer).byteLength;
}

export class SocketLink implements Sheddable {
  readonly socketId = newId('sock');
  /** The environment it belongs to once authenticated (sessions.admit): its share of the send budget. */
  environmentId = '';
  private readonly socket: WebSocket;
  private readonly raw: Socket | undefined;
  private readonly options: LinkOptions;
  private readonly inbound: InboundLimit;
  private readonly heartbeat: NodeJS.Timeout;
  private handshake: NodeJS.Timeout | undefined;
  private expiry: NodeJS.Timeout | undefined;
  private readonly uncount: () => void;
  private alive = true;
  private readonly onStop: (() => void)[] = [];
  closed = false;

  constructor(socket: WebSocket, raw: Socket | undefined, options: LinkOptions, budget: SendBudget) {
    this.socket = socket;
    this.raw = raw;
    this.options = options;
    this.inbound = new InboundLimit(options, Date.now());
    // a broken peer (bad frame, reset) ends in 'close'; unhandled, 'error' would take the process down
    socket.on('error', () => {});
    socket.on('pong', () => {
      this.alive = true;
    });
    // ws answers pings itself: they count against the inbound rate like any frame
    socket.on('ping', (data: Buffer) => void this.admit(data));
    socket.once('close', () => this.stop());
    this.heartbeat = setInterval(() => {
      if (!this.alive) return this.reset();
      this.alive = false;
      if (socket.readyState === OPEN) socket.ping();
    }, options.heartbeatMs);
    this.heartbeat.unref();
    this.handshake = setTimeout(() => this.closeWith(SOCKET_CLOSE.handshakeTimeout), options.handshakeMs);
    this.handshake.unref();
    this.uncount = budget.add(this);
  }

  /** Bytes queued in this process for the peer (ws's queue and the TCP socket's writable buffer). */
  get queued(): number {
    return this.socket.bufferedAmount;
  }

  /** The handshake is done (authenticated, access checked, replay started): its deadline is lifted. */
  established(): void {
    clearTimeout(this.handshake);
    this.handshake = undefined;
  }

  /** Closes the socket with 4401 when its token expires. */
  expireAt(expiresAt: Date): void {
    clearTimeout(this.expiry);
    if (this.closed) return;
    const delay = expiresAt.getTime() - Date.now();
    if (delay <= 0) return this.closeWith(SOCKET_CLOSE.tokenExpired);
    this.expiry = setTimeout(() => this.expireAt(expiresAt), Math.min(delay, MAX_DELAY));
    this.expiry.unref();
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
        process.nextTick(this.uncork);
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
  private readonly uncork = (): void => {
    this.corked = false;
    this.corkedBytes = 0;
    this.raw?.uncork();
  };

  /** Resolves once the queue is under half its limit (or the socket closed): replays go at the client's pace. */
  async drained(): Promise<void> {
    const limit = this.options.bufferLimit / 2;
    while (!this.closed && this.queued > limit) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  shed(): void {
    this.closeWith(SOCKET_CLOSE.slowConsumer);
  }

  closeWith(closing: Closing): void {
    this.close(closing.code, closing.reason);
  }

  close(code: number, reason?: string): void {
    if (this.closed) return;
    this.stop();
    // close reasons are limited to 123 bytes
    const text = Buffer.from(reason ?? '', 'utf8').subarray(0, 123).toString('utf8').replace(/\uFFFD$/, '');
    try {
      this.socket.close(code, text);
    } catch {
      return this.reset();
    }
    setTimeout(() => {
      if (this.socket.readyState !== this.socket.CLOSED) this.reset();
    }, this.options.closeGraceMs).unref();
  }

  /** Drops the connection with a TCP reset: what is queued, here and in the kernel, is freed at once. */
  private reset(): void {
    this.stop();
    if (this.raw && !this.raw.destroyed) this.raw.resetAndDestroy();
    else this.socket.terminate();
  }

  /** Runs `fn` once when the socket closes (at once if it already has). */
  onClosed(fn: () => void): void {
    if (this.closed) fn();
    else this.onStop.push(fn);
  }

  private stop(): void {
    if (this.closed) return;
    this.closed = true;
    for (const fn of this.onStop.splice(0)) fn();
    clearInterval(this.heartbeat);
    clearTimeout(this.handshake);
    clearTimeout(this.expiry);
    this.uncount();
  }
}
