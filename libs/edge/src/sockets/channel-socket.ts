/**
 * The channel socket, `GET /v1/channels/{channelId}?since=<seq>` (or `?rewind=<N or duration>`:
 * the last N messages, or those of the last `2m`; `since` wins) on the realtime edge.
 *
 * States of one connection and their transitions:
 *   opening   → authenticate (Bearer or ?token=), validate, check read access, admit (quotas,
 *               token expiry); any failure closes with its code from SOCKET_CLOSE → closed. The
 *               whole of opening has SOCKET_HANDSHAKE_MS (4503 past it). Client frames received
 *               meanwhile wait, at most MAX_EARLY_FRAMES / MAX_EARLY_BYTES of them (4429 past it).
 *   opening   → replaying: join the channel's feed FIRST (live frames are buffered), snapshot the
 *               channel's last_seq, resolve a `rewind` to a `since` against it, send every
 *               persisted message in (since, snapshot] from Postgres, then `{op:"ready", channelId, lastSeq: snapshot, userId}`.
 *   replaying → live: the buffer is flushed minus persisted frames with seq <= snapshot (already
 *               replayed), so nothing is missed and nothing is sent twice; client frames received
 *               meanwhile are handled now, in order.
 *   live      → closed: the client leaves, misses a heartbeat (reset), is too slow (4503, it
 *               should resume with `since`), sends over its rate (4429), its token expires (4401),
 *               is kicked (4403 by a ban, removal or access change), or the gateway drains (4503).
 * Client frames: publish → ack, retract → ack, ping → pong; anything malformed → error frame.
 * The sending side, limits and deadlines are the SocketLink's (sessions/socket-link.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { RawData } from 'ws';
import { ServiceError, isServiceError, type QuotaDetail } from '@rtm/errors';
import { publishLog } from '@rtm/bus';
import { ChannelId, ClientFrame, SocketQuery } from '@rtm/schemas';
import type { ZodApp } from '../zod-app.ts';
import { readClientFrame } from '../sessions/client-frame.ts';
import { contentText } from '../channels/raw-content.ts';
import { userEdit, userReaction } from '../channels/message-changes.ts';
import type { EdgeDeps } from '../edge-deps.ts';
import { mountSocketRoute, type AcceptDeps } from '../sessions/accept-link.ts';
import type { SocketLink } from '../sessions/socket-link.ts';
import type { Sessions } from '../sessions/sessions.ts';
import { SOCKET_CLOSE, SOCKET_CLOSE_WITH, closingFor, type Closing } from './close-codes.ts';
import type { ChannelSocketHandle } from '../socket-events.ts';
import { authenticateUser, type AuthDeps, type UserAuth } from '../auth/authenticate.ts';
import { authorize, authorizeRetract, type AccessDeps } from '../access/channel-access.ts';
import { ChannelReplay } from '../sessions/channel-replay.ts';
import { EarlyFrames } from './early-frames.ts';
import { deltaOff } from './connect-subscription.ts';
import { sendPublish, type PublishDeps } from '../channels/publish.ts';
import { historyUnits } from '@rtm/limits';

/** What one channel socket uses: token checks, access decisions, publishing, replay, limits, the bus and the log. */
export type ChannelSocketDeps = AuthDeps &
  AccessDeps &
  PublishDeps &
  Pick<EdgeDeps, 'events' | 'limits' | 'log' | 'nc' | 'reads' | 'sessions' | 'subjects' | 'usage'>;

type Request = FastifyRequest;

class ChannelConnection {
  readonly socketId: string;
  userId = '';
  private readonly deps: ChannelSocketDeps;
  private readonly sessions: Sessions;
  private readonly link: SocketLink;
  private auth: UserAuth | undefined;
  private channelId = '';
  private reader: ChannelReplay | undefined;
  private readonly early = new EarlyFrames();
  private opened = false;
  readonly handle: ChannelSocketHandle;

  constructor(deps: ChannelSocketDeps, sessions: Sessions, link: SocketLink) {
    this.deps = deps;
    this.sessions = sessions;
    this.link = link;
    this.socketId = link.socketId;
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
      close: (closing: Closing) => this.close(closing),
      revoke: (_code, reason) => this.close(SOCKET_CLOSE_WITH.revoked(reason)),
    };
  }

  /** Called with the socket's own events (see channelSocketRoutes). */
  onMessage(data: RawData, isBinary: boolean): void {
    if (!this.link.admit(data)) return;
    const early = this.early.hold(data, isBinary);
    if (early === 'over') this.link.closeWith(SOCKET_CLOSE.tooEarly);
    else if (early === 'live') void this.onFrame(data, isBinary);
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
      const auth = this.auth;
      const { environmentId } = auth;
      const reader = new ChannelReplay({
        deps: this.deps,
        feeds: this.sessions.channels,
        link: this.link,
        environmentId,
        channelId: this.channelId,
        userId: this.userId,
        tagged: false,
        delta: query.data.delta !== undefined,
        lost: (closing) => this.link.closeWith(closing),
      });
      this.reader = reader;
      // the access check, quotas and the feed join (last_seq) wait their environment's turn (sessions.admission)
      const joined = await this.sessions.admission.run(environmentId, async () => {
        if (this.closed) return false;
        const standing = await authorize(this.deps, auth, this.channelId, 'subscribe');
        this.handle.presence = standing.namespace.presence;
        if (query.data.delta !== undefined && !standing.namespace.delta) throw deltaOff();
        if (this.closed) return false;
        await this.sessions.admit(this.link, auth, 'channel');
        return !this.closed && (await reader.join());
      });
      if (!joined) return;
      const since = await reader.since(query.data);
      if (this.closed) return;
      // a replay reads history: weighed as a page of what it will send
      if (since !== undefined && reader.lastSeq > since) await this.deps.limits.admitEdge(auth, 'history', historyUnits(reader.lastSeq - since));
      if (this.closed) return;
      this.link.established();
      if (!(await reader.replay({ since }))) return;
      this.sendText(JSON.stringify({ op: 'ready', channelId: this.channelId, lastSeq: reader.lastSeq, userId: this.userId }));
      reader.live();
      this.opened = true;
      this.deps.events.emit('channel.open', this.handle);
      publishLog(this.deps.nc, this.deps.subjects, environmentId, 'info', 'socket.opened', {
        socket: 'channel',
        channelId: this.channelId,
        userId: this.userId,
        socketId: this.socketId,
      });
      // frames that arrive while the early ones are handled queue behind them, in order
      for (let frame = this.early.next(); frame && !this.closed; frame = this.early.next()) await this.onFrame(...frame);
      this.early.release();
    } catch (error) {
      const closing = closingFor(error);
      if (!isServiceError(error)) this.deps.log.warn({ err: error }, 'channel socket open failed');
      if (this.auth) {
        publishLog(this.deps.nc, this.deps.subjects, this.auth.environmentId, 'warn', 'socket.refused', {
          socket: 'channel',
          channelId: this.channelId,
          userId: this.userId,
          code: closing.code,
          reason: isServiceError(error) ? error.code : 'unavailable',
        });
      }
      this.close(closing);
    }
  }

  sendText(text: string): void {
    if (this.closed) return;
    this.link.sendText(text);
  }

  private error(ref: unknown, code: string, reason?: string, retryAfter?: number, quota?: QuotaDetail): void {
    const frame: Record<string, unknown> = { op: 'error' };
    if (typeof ref === 'string' || typeof ref === 'number') frame.ref = ref;
    frame.code = code;
    if (reason !== undefined) frame.reason = reason;
    if (retryAfter !== undefined) frame.retryAfter = retryAfter;
    if (quota !== undefined) frame.quota = quota;
    this.sendText(JSON.stringify(frame));
  }

  private async onFrame(data: RawData, isBinary: boolean): Promise<void> {
    const read = readClientFrame(data, isBinary);
    if (!read.ok) return this.error(undefined, read.code, read.reason);
    const raw = read.value;
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
      if (frame.op === 'publish') {
        // every frame: the decision is cached per gateway and dropped on any change (a role, a ban)
        await authorize(this.deps, auth, this.channelId, 'publish');
        if (!(await this.deps.limits.admitPublish(auth, frame.mentions?.length ?? 0))) return this.close(SOCKET_CLOSE.publishRateLimited);
        const fields = { ...frame, content: contentText(read.text) };
        const result = await sendPublish(this.deps, auth.environmentId, this.channelId, fields, 'user', { id: auth.userId, anon: auth.anon }, 'socket');
        this.sendText(JSON.stringify({ op: 'ack', ref: frame.ref, ...result }));
      } else if (frame.op === 'edit') {
        await authorize(this.deps, auth, this.channelId, 'edit');
        if (!(await this.deps.limits.admitPublish(auth, 0))) return this.close(SOCKET_CLOSE.publishRateLimited);
        const result = await userEdit(this.deps, auth, this.channelId, frame.id, contentText(read.text));
        this.sendText(JSON.stringify({ op: 'ack', ref: frame.ref, ...result }));
      } else if (frame.op === 'react' || frame.op === 'unreact') {
        await authorize(this.deps, auth, this.channelId, 'react');
        await this.deps.limits.admitEdge(auth, 'react');
        const result = await userReaction(this.deps, auth, this.channelId, frame.id, frame.type, frame.op === 'unreact');
        this.sendText(JSON.stringify({ op: 'ack', ref: frame.ref, ...result }));
      } else {
        const onlySender = await authorizeRetract(this.deps, auth, this.channelId);
        // over the user's retract rate: an error frame with retryAfter, the socket stays open
        await this.deps.limits.admitEdge(auth, 'retract');
        const result = await this.deps.owners.send({
          op: 'retract',
          environmentId: auth.environmentId,
          channelId: this.channelId,
          messageId: frame.id,
          reason: frame.reason,
          onlySender,
        });
        this.sendText(JSON.stringify({ op: 'ack', ref: frame.ref, ...result }));
      }
    } catch (error) {
      const serviceError = isServiceError(error) ? error : new ServiceError('internal');
      if (!isServiceError(error)) this.deps.log.error({ err: error }, 'channel socket frame failed');
      this.error(frame.ref, serviceError.code, serviceError.reason, serviceError.retryAfter, serviceError.quota);
    }
  }

  /** Closed by either side: the link stops sending and counting at once, before ws's 'close'. */
  private get closed(): boolean {
    return this.link.closed;
  }

  close(closing: Closing): void {
    this.link.closeWith(closing);
  }

  onClose(code: number): void {
    this.early.release();
    this.reader?.stop();
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

/** Realtime edge: the channel socket (documented in docs/channels.md; WebSockets are outside OpenAPI). */
export async function channelSocketRoutes(app: ZodApp, deps: ChannelSocketDeps & AcceptDeps) {
  const sessions = deps.sessions;
  // draining closes every socket with 4503: reconnect elsewhere and resume with `since`
  mountSocketRoute(app, deps, 'channel', '/v1/channels/:channelId', (link) => new ChannelConnection(deps, sessions, link));
}
