/**
 * A server-sent event stream under a connection (`GET /v1/events`, sockets/events-stream.ts): the
 * Link a WebSocket's SocketLink is, for clients whose WebSockets are blocked. The rules are the
 * socket's: counted in the gateway's send budget, more than `bufferLimit` bytes queued closes it as
 * a slow consumer, the token's expiry closes it (4401), the handshake has its deadline, the gateway
 * drains it (4503), and it closes only through `closeWith` with an entry of the close table.
 *
 * What differs is the wire. Nothing is written until the handshake is done (`established`): a
 * close before then is the request's HTTP answer instead (`refusal`, in the error envelope). Then
 * `200 text/event-stream`, `retry: 1000`, and one event per frame: `id: <positions>` (every
 * channel's position and the inbox's, sessions/event-positions.ts) and `data: <the frame's JSON>`. A comment
 * (`: ping`) every 15 s keeps proxies from timing the stream out; nothing is read from the client.
 * A close is `retry: <back-off>` and the event `{op:"closed", code, reason}`, then the end of the
 * response; a peer that does not take it within `closeGraceMs` is dropped.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '@rtm/db';
import { closeCodeFor, type ErrorCode } from '@rtm/errors';
import { SOCKET_CLOSE, type Closing } from '../sockets/close-codes.ts';
import type { ZodApp } from '../zod-app.ts';
import type { AcceptDeps } from './accept-link.ts';
import { releaseLink, type FrameText, type Link, type TokenWatch } from './link.ts';
import type { UserClaims } from '@rtm/auth';
import type { SendBudget } from './send-budget.ts';
import type { LinkOptions, LinkSession } from './socket-link.ts';
import { Deadline, Deadlines, LinkClock } from './deadlines.ts';
import type { EventPositions } from './event-positions.ts';

/** The heartbeat comment's period (fixed: what proxies' idle timeouts allow). */
export const SSE_HEARTBEAT_MS = 15_000;
/** What a client waits before reconnecting after a stream breaks (the `retry:` line that opens every stream). */
export const SSE_RETRY_MS = 1_000;

/** The error code a close stands for: what a stream closed before it started answers (HTTP status and envelope). */
const OPEN_REFUSALS: ErrorCode[] = ['invalid_request', 'unauthorized', 'banned', 'rate_limited', 'internal', 'unavailable'];
export function refusalCode(closing: Closing): ErrorCode {
  return OPEN_REFUSALS.find((code) => closeCodeFor(code) === closing.code) ?? 'unavailable';
}

/**
 * The `retry:` back-off sent with a close, by its reason: a browser's EventSource reconnects by
 * itself after it, so a stream the gateway drains (or sheds) spreads its clients' returns over a
 * few seconds instead of bringing them all back at once.
 */
export function retryAfterClose(closing: Closing): number {
  switch (refusalCode(closing)) {
    case 'unauthorized':
      return SSE_RETRY_MS;
    case 'banned':
      return 60_000;
    case 'unavailable':
      return SSE_RETRY_MS + Math.floor(Math.random() * 2_000);
    case 'invalid_request':
      return 60_000;
    default:
      return 5_000;
  }
}

/** The code a stream's connection is told when the client went away (the WebSocket "going away"). */
const PEER_GONE = 1001;
const RULES = 0;
const GRACE = 1;
const deadlines = new Deadlines<SseLink>((link, kind) => link.due(kind));

function onResponseClose(this: ServerResponse & { sse?: SseLink }): void {
  this.sse?.ended();
}
function uncork(link: SseLink): void {
  link.uncork();
}

/** `data:` lines of a frame: JSON text holds a line break only between tokens, and each line is its own `data:` field. */
function dataLines(text: string): string {
  return text.includes('\n') || text.includes('\r')
    ? text
        .split(/\r\n|\r|\n/)
        .map((line) => `data: ${line}`)
        .join('\n')
    : `data: ${text}`;
}

export class SseLink implements Link {
  readonly socketId = newId('sock');
  environmentId = '';
  claims: UserClaims | undefined;
  tokens: TokenWatch | undefined;
  closed = false;
  /** Its connection: told when the stream ends. */
  session: Pick<LinkSession, 'onClose'> | undefined;
  /** Its route, told when it ends. */
  group: { closed(link: SseLink): void } | undefined;
  /** The close that came before the stream started: the request's HTTP answer. */
  refusal: Closing | undefined;
  private started = false;
  private done = false;
  private closeCode = PEER_GONE;
  private readonly reply: FastifyReply;
  private readonly raw: ServerResponse & { sse?: SseLink };
  private readonly options: LinkOptions;
  private readonly budget: SendBudget;
  private readonly positions: EventPositions;
  private readonly cors: boolean;
  /** Its heartbeat, handshake deadline and token expiry, as one entry on the process's timer. */
  private readonly clock: LinkClock<SseLink>;
  private corked = false;

  constructor(request: FastifyRequest, reply: FastifyReply, options: LinkOptions, budget: SendBudget, positions: EventPositions) {
    this.reply = reply;
    this.raw = reply.raw;
    this.options = options;
    this.budget = budget;
    this.positions = positions;
    this.cors = request.headers.origin !== undefined;
    this.raw.sse = this;
    this.raw.on('close', onResponseClose);
    this.clock = new LinkClock(deadlines, new Deadline<SseLink>(this, RULES), options.handshakeMs, SSE_HEARTBEAT_MS);
    budget.add(this);
  }

  /** Bytes queued in this process for the peer (the response's and its TCP socket's). */
  get queued(): number {
    return this.raw.writableLength;
  }

  due(kind: number): void {
    if (kind === GRACE) {
      if (!this.done) this.raw.destroy();
      return;
    }
    if (this.closed) return;
    const due = this.clock.due(Date.now());
    if (due === true && this.started) this.write(': ping\n\n');
    else if (due !== false && due !== true) this.closeWith(due);
  }

  /** The connection is admitted: the stream starts (status, headers, `retry:`), and its handshake deadline is lifted. */
  established(): void {
    if (this.closed || this.started) return;
    this.started = true;
    this.clock.established();
    this.reply.hijack();
    const headers: Record<string, string> = {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    };
    // as every route of the realtime edge (http/cors.ts): bearer tokens, never cookies
    if (this.cors) headers['access-control-allow-origin'] = '*';
    this.raw.writeHead(200, headers);
    this.write(`retry: ${SSE_RETRY_MS}\n\n`);
  }

  expireAt(expiresAt: Date): void {
    if (!this.closed && !this.clock.expireAt(expiresAt)) this.closeWith(SOCKET_CLOSE.tokenExpired);
  }

  /** An event stream reads nothing from its client after the request: no frame is ever admitted. */
  admit(): boolean {
    return false;
  }

  send(frame: object): void {
    const { op, channelId, lastSeq, id } = frame as { op?: unknown; channelId?: unknown; lastSeq?: unknown; id?: unknown };
    // the replay is over: the channel stands at its lastSeq (live frames after it are above it)
    if (op === 'subscribed' && typeof channelId === 'string' && typeof lastSeq === 'number') this.positions.set(channelId, lastSeq);
    if (op !== 'notification' || typeof id !== 'string') return this.sendText(JSON.stringify(frame));
    // the inbox's notifications (replayed and live) come as objects: the event's id carries theirs
    if (this.closed || !this.started) return;
    if (this.queued > this.options.bufferLimit) return this.shed();
    this.positions.setInbox(id);
    this.event(JSON.stringify(frame));
  }

  sendText(text: FrameText, channelId?: string, seq?: number): void {
    if (this.closed || !this.started) return;
    if (this.queued > this.options.bufferLimit) return this.shed();
    if (channelId !== undefined && seq !== undefined) this.positions.set(channelId, seq);
    this.event(typeof text === 'string' ? text : text.toString('utf8'));
  }

  private event(json: string): void {
    this.write(`id: ${this.positions.id}\n${dataLines(json)}\n\n`);
  }

  /** Writes of one event-loop turn leave in one write, as a WebSocket's do (socket-link.ts). */
  private write(text: string): void {
    if (!this.corked) {
      this.corked = true;
      this.raw.cork();
      process.nextTick(uncork, this);
    }
    this.raw.write(text);
  }

  uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    this.raw.uncork();
  }

  async drained(): Promise<void> {
    const limit = this.options.bufferLimit / 2;
    while (!this.closed && this.queued > limit) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  shed(): void {
    this.closeWith(SOCKET_CLOSE.slowConsumer);
  }

  /**
   * Closes with an entry of the close table. Before the stream started it is the request's refusal
   * (the route answers it); after, the client is told the back-off and why, and the response ends.
   */
  closeWith(closing: Closing): void {
    if (this.closed) return;
    this.stop();
    this.closeCode = closing.code;
    if (!this.started) {
      this.refusal = closing;
      return;
    }
    this.write(`retry: ${retryAfterClose(closing)}\n\n`);
    this.event(JSON.stringify({ op: 'closed', code: closing.code, reason: closing.reason }));
    // out before the end: on Node 24 end() on a corked response sends the last chunk of the
    // chunked body ahead of what the cork held, and the client reads the close as garbage
    this.uncork();
    this.raw.end();
    deadlines.set(new Deadline<SseLink>(this, GRACE), Date.now() + this.options.closeGraceMs);
  }

  /** The response is over (sent, or its connection gone): the connection learns it once. */
  ended(): void {
    if (this.done) return;
    this.done = true;
    this.stop();
    this.group?.closed(this);
    this.session?.onClose(this.closeCode);
  }

  /** Stops every rule of the stream (called when it closes). Idempotent. */
  stop(): void {
    if (this.closed) return;
    this.closed = true;
    releaseLink(this, this.clock, this.budget);
  }
}

/**
 * For the streams of the events route: wraps each request in an SseLink with the socket limits,
 * counts it in `gateway_open_sockets{kind="events"}`, and closes every open one with 4503 when the
 * gateway drains (reconnect elsewhere, resume with the last event id), as linkAcceptor does for
 * the WebSocket routes (accept-link.ts).
 */
export function sseAcceptor(app: ZodApp, deps: AcceptDeps): (request: FastifyRequest, reply: FastifyReply, positions: EventPositions) => SseLink {
  const live = new Set<SseLink>();
  const open = deps.sessionMetrics.sockets.labels('events');
  const { config } = deps;
  const options: LinkOptions = {
    bufferLimit: config.SOCKET_BUFFER_LIMIT,
    heartbeatMs: SSE_HEARTBEAT_MS,
    handshakeMs: config.SOCKET_HANDSHAKE_MS,
    closeGraceMs: config.SOCKET_CLOSE_GRACE_MS,
    framesPerSecond: config.CONNECT_FRAMES_PER_SECOND,
    bytesPerSecond: config.SOCKET_BYTES_PER_SECOND,
  };
  const group = {
    closed(link: SseLink) {
      if (live.delete(link)) open.dec();
    },
  };
  app.addHook('preClose', async () => {
    for (const link of live) link.closeWith(SOCKET_CLOSE.draining);
  });
  return (request, reply, positions) => {
    const link = new SseLink(request, reply, options, deps.sessions.budget, positions);
    link.group = group;
    live.add(link);
    open.inc();
    return link;
  };
}
