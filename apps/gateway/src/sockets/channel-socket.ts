/**
 * The channel socket, `GET /v1/channels/{channelId}?since=<seq>` on the realtime edge.
 *
 * States of one connection and their transitions:
 *   opening   → authenticate (Bearer or ?token=), validate, check read access; any failure closes
 *               with the matching close code (4400/4401/4403/4503…) → closed.
 *   opening   → replaying: join the channel's feed FIRST (live frames are buffered), snapshot the
 *               channel's last_seq, send every persisted message in (since, snapshot] from
 *               Postgres, then `{op:"ready", channelId, lastSeq: snapshot, userId}`.
 *   replaying → live: the buffer is flushed minus persisted frames with seq <= snapshot (already
 *               replayed), so nothing is missed and nothing is sent twice; client frames received
 *               meanwhile are handled now, in order.
 *   live      → closed: the client leaves, misses a heartbeat (terminated), is too slow
 *               (buffered bytes over SOCKET_BUFFER_LIMIT: 4503, it should resume with `since`),
 *               is kicked (4403 by the membership module), or the gateway drains (4503).
 * Client frames: publish → ack, retract → ack, ping → pong; anything malformed → error frame.
 */
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { CLOSE, ServiceError, closeCodeFor, isServiceError } from '@rtm/errors';
import { publishLog } from '@rtm/bus';
import { newId } from '@rtm/db';
import { ChannelId, ClientFrame, MAX_CONTENT_BYTES, SocketQuery, jsonSize } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import { MAX_FRAME_BYTES } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import type { ChannelSocketHandle } from '../socket-events.ts';
import { authenticateUser, type UserAuth } from '../auth/authenticate.ts';
import { checkChannelAccess } from '../access/channel-access.ts';
import { FeedRegistry, isSequenced, type ChannelFeed, type FeedMember, type Frame } from '../channels/channel-feed.ts';
import { readLastSeq, readMessages } from '../channels/message-reader.ts';
import { sendCommand } from '../channels/owner-client.ts';

const REPLAY_PAGE = 200;
/** Client frames that may wait while the socket replays; more is a misbehaving client. */
const MAX_EARLY_FRAMES = 256;
/** Live frames held back during one replay; a channel that outruns a long replay makes it resume. */
const MAX_HELD_FRAMES = 10_000;

type Request = FastifyRequest;

class ChannelConnection implements FeedMember {
  readonly socketId = newId('sock');
  userId = '';
  private readonly deps: GatewayDeps;
  private readonly feeds: FeedRegistry;
  private readonly socket: WebSocket;
  private auth: UserAuth | undefined;
  private channelId = '';
  private feed: ChannelFeed | undefined;
  /** Live frames held back while replaying; null once live. */
  private held: [string, Frame][] | null = [];
  private early: [RawData, boolean][] | null = [];
  private closed = false;
  private opened = false;
  alive = true;
  private publishAccess: Promise<void> | undefined;
  readonly handle: ChannelSocketHandle;

  constructor(deps: GatewayDeps, feeds: FeedRegistry, socket: WebSocket) {
    this.deps = deps;
    this.feeds = feeds;
    this.socket = socket;
    const self = this;
    this.handle = {
      socketId: this.socketId,
      get environmentId() {
        return self.auth?.environmentId ?? '';
      },
      get userId() {
        return self.userId;
      },
      get anon() {
        return self.auth?.anon ?? false;
      },
      get channelId() {
        return self.channelId;
      },
      send: (frame: object) => this.sendText(JSON.stringify(frame)),
      close: (code: number, reason?: string) => this.close(code, reason),
    };
    socket.on('message', (data, isBinary) => {
      if (this.early) {
        if (this.early.length >= MAX_EARLY_FRAMES) return this.close(CLOSE.rateLimited, 'too many frames before ready');
        this.early.push([data, isBinary]);
        return;
      }
      void this.onFrame(data, isBinary);
    });
    socket.on('pong', () => (this.alive = true));
    socket.on('close', (code) => this.onClose(code));
    socket.on('error', () => {});
  }

  async open(request: Request): Promise<void> {
    try {
      const channel = ChannelId.safeParse((request.params as { channelId?: unknown }).channelId);
      if (!channel.success) throw new ServiceError('invalid_request', `channelId: ${channel.error.issues[0]?.message}`);
      const query = SocketQuery.safeParse(request.query ?? {});
      if (!query.success) {
        const issue = query.error.issues[0];
        throw new ServiceError('invalid_request', `query.${issue?.path.join('.')}: ${issue?.message}`);
      }
      this.channelId = channel.data;
      this.auth = await authenticateUser(this.deps, request);
      this.userId = this.auth.userId;
      await checkChannelAccess(this.deps, this.auth, this.channelId, 'read');
      if (this.closed) return;
      const { environmentId } = this.auth;
      this.feed = await this.feeds.join(environmentId, this.channelId, this);
      if (this.closed) return this.feeds.leave(this.feed, this);
      const snapshot = await readLastSeq(this.deps.pool, environmentId, this.channelId);
      let after = query.data.since;
      while (after !== undefined && after < snapshot && !this.closed) {
        const page = await readMessages(this.deps.pool, environmentId, this.channelId, {
          after,
          before: snapshot + 1,
          limit: REPLAY_PAGE,
          viewer: this.userId,
        });
        for (const envelope of page) {
          // a replay goes at the client's pace: it must not trip the slow-consumer limit itself
          await this.drained();
          this.sendText(JSON.stringify(envelope));
        }
        if (page.length < REPLAY_PAGE) break;
        after = page[page.length - 1]!.seq;
      }
      if (this.closed) return;
      this.sendText(JSON.stringify({ op: 'ready', channelId: this.channelId, lastSeq: snapshot, userId: this.userId }));
      const held = this.held ?? [];
      this.held = null;
      for (const [text, frame] of held) {
        if (isSequenced(frame) && frame.seq <= snapshot) continue;
        this.sendText(text);
      }
      this.opened = true;
      this.deps.events.emit('channel.open', this.handle);
      publishLog(this.deps.nc, this.deps.subjects, environmentId, 'info', 'socket.opened', {
        socket: 'channel',
        channelId: this.channelId,
        userId: this.userId,
        socketId: this.socketId,
      });
      // frames that arrive while the early ones are handled queue behind them, in order
      const early = this.early ?? [];
      while (early.length > 0 && !this.closed) {
        const [data, isBinary] = early.shift()!;
        await this.onFrame(data, isBinary);
      }
      this.early = null;
    } catch (error) {
      const serviceError = isServiceError(error) ? error : new ServiceError('unavailable', 'could not open the channel');
      if (!isServiceError(error)) this.deps.log.warn({ err: error }, 'channel socket open failed');
      if (this.auth) {
        publishLog(this.deps.nc, this.deps.subjects, this.auth.environmentId, 'warn', 'socket.refused', {
          socket: 'channel',
          channelId: this.channelId,
          userId: this.userId,
          code: closeCodeFor(serviceError.code),
          reason: serviceError.code,
        });
      }
      this.close(closeCodeFor(serviceError.code), serviceError.reason ?? serviceError.code);
    }
  }

  /** Replay pages wait for the socket to take the previous one (bounded memory). */
  private async drained(): Promise<void> {
    const limit = this.deps.config.SOCKET_BUFFER_LIMIT / 2;
    if (this.socket.bufferedAmount <= limit) return;
    while (!this.closed && this.socket.bufferedAmount > limit) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  deliver(text: string, frame: Frame): void {
    if (!this.held) return this.sendText(text);
    if (this.held.length >= MAX_HELD_FRAMES) return this.close(CLOSE.unavailable, 'too far behind: resume with since');
    this.held.push([text, frame]);
  }

  resync(): void {
    this.close(CLOSE.unavailable, 'resume with since');
  }

  heartbeat(): void {
    if (!this.alive) {
      this.socket.terminate();
      return;
    }
    this.alive = false;
    try {
      this.socket.ping();
    } catch {
      // closing
    }
  }

  sendText(text: string): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > this.deps.config.SOCKET_BUFFER_LIMIT) {
      this.close(CLOSE.unavailable, 'slow consumer: resume with since');
      return;
    }
    this.socket.send(text);
  }

  private error(ref: unknown, code: string, reason?: string): void {
    const frame: Record<string, unknown> = { op: 'error' };
    if (typeof ref === 'string' || typeof ref === 'number') frame.ref = ref;
    frame.code = code;
    if (reason !== undefined) frame.reason = reason;
    this.sendText(JSON.stringify(frame));
  }

  private async onFrame(data: RawData, isBinary: boolean): Promise<void> {
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
    if (size > MAX_FRAME_BYTES) return this.error(undefined, 'payload_too_large', `frames are at most ${MAX_FRAME_BYTES} bytes`);
    if (isBinary) return this.error(undefined, 'invalid_request', 'frames are JSON text');
    let raw: unknown;
    try {
      raw = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'));
    } catch {
      return this.error(undefined, 'invalid_request', 'malformed JSON');
    }
    const ref = (raw as { ref?: unknown } | null)?.ref;
    const parsed = ClientFrame.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.');
      return this.error(ref, 'invalid_request', `${path ? `${path}: ` : ''}${issue?.message ?? 'invalid frame'}`);
    }
    const frame = parsed.data;
    const auth = this.auth!;
    try {
      if (frame.op === 'ping') {
        this.sendText(JSON.stringify(frame.ref === undefined ? { op: 'pong' } : { op: 'pong', ref: frame.ref }));
        return;
      }
      this.publishAccess ??= checkChannelAccess(this.deps, auth, this.channelId, 'publish');
      await this.publishAccess.catch((error: unknown) => {
        this.publishAccess = undefined;
        throw error;
      });
      if (frame.op === 'publish') {
        if (!(await this.deps.limits.admitPublish(auth))) return this.close(CLOSE.rateLimited, 'publish rate limit exceeded');
        if (jsonSize(frame.content) > MAX_CONTENT_BYTES) throw new ServiceError('payload_too_large', 'content is over 64 KiB serialized');
        const result = await sendCommand(this.deps, {
          op: 'publish',
          environmentId: auth.environmentId,
          channelId: this.channelId,
          type: frame.type ?? 'message',
          kind: 'user',
          content: frame.content,
          sender: { id: auth.userId, anon: auth.anon },
          to: frame.to,
          mentions: frame.mentions,
          ephemeral: frame.ephemeral ?? false,
          idempotencyKey: frame.idempotencyKey,
        });
        this.sendText(JSON.stringify({ op: 'ack', ref: frame.ref, ...result }));
      } else {
        const result = await sendCommand(this.deps, {
          op: 'retract',
          environmentId: auth.environmentId,
          channelId: this.channelId,
          messageId: frame.id,
          reason: frame.reason,
          onlySender: auth.userId,
        });
        this.sendText(JSON.stringify({ op: 'ack', ref: frame.ref, ...result }));
      }
    } catch (error) {
      const serviceError = isServiceError(error) ? error : new ServiceError('internal');
      if (!isServiceError(error)) this.deps.log.error({ err: error }, 'channel socket frame failed');
      this.error(frame.ref, serviceError.code, serviceError.reason);
    }
  }

  close(code: number, reason?: string): void {
    if (this.closed) return;
    try {
      // close reasons are limited to 123 bytes
      this.socket.close(code, reason === undefined ? undefined : Buffer.from(reason).subarray(0, 123).toString());
    } catch {
      this.socket.terminate();
    }
    this.closed = true;
  }

  onClose(code: number): void {
    this.closed = true;
    this.held = null;
    if (this.feed) this.feeds.leave(this.feed, this);
    this.feed = undefined;
    connections.get(this.deps)?.delete(this);
    if (!this.opened) return;
    this.opened = false;
    this.deps.events.emit('channel.close', this.handle);
    publishLog(this.deps.nc, this.deps.subjects, this.auth!.environmentId, 'info', 'socket.closed', {
      socket: 'channel',
      channelId: this.channelId,
      userId: this.userId,
      socketId: this.socketId,
      code,
    });
  }
}

const connections = new WeakMap<GatewayDeps, Set<ChannelConnection>>();

/** Realtime edge: the channel socket (documented in docs/channels.md; WebSockets are outside OpenAPI). */
export async function channelSocketRoutes(app: ZodApp, deps: GatewayDeps) {
  const feeds = new FeedRegistry(deps);
  const live = new Set<ChannelConnection>();
  connections.set(deps, live);
  const heartbeat = setInterval(() => {
    for (const connection of live) connection.heartbeat();
  }, deps.config.HEARTBEAT_MS);
  heartbeat.unref();

  // draining: every socket is told to reconnect elsewhere and resume with `since`
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const connection of live) connection.close(CLOSE.unavailable, 'gateway draining');
  });

  app.get('/v1/channels/:channelId', { websocket: true, schema: { hide: true } }, (socket, request) => {
    const connection = new ChannelConnection(deps, feeds, socket);
    live.add(connection);
    void connection.open(request as unknown as Request);
  });
}
