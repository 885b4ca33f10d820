/**
 * The multiplexed socket, `GET /v1/connect` on the realtime edge: one WebSocket for any number of
 * channel subscriptions and the user's inbox (frames in docs/protocol.md).
 *
 * States of one connection:
 *   opening → authenticate (Bearer or ?token=), admit (quotas, token expiry), become reachable by
 *             environment kicks, then check the environment ban (so a ban racing the open cannot
 *             slip between the two), then `{op:"connected"}`. Failures close with their code from
 *             SOCKET_CLOSE. Frames received meanwhile wait (MAX_EARLY_FRAMES / _BYTES, else 4429).
 *   open    → frames are handled as they come; the connection closes on the shared rules of every
 *             socket (sessions/socket-link.ts): heartbeat, slow consumer, inbound rate, token expiry,
 *             drain, environment ban.
 * Each channel subscription is a ChannelReplay (the channel socket's reader, with `channelId` on
 * every frame) and is itself the handle that presence and kicks treat like a channel socket; a
 * kick ends the subscription alone with `{op:"unsubscribed", channelId, code}`. A gateway holds
 * tens of thousands of idle connections, so neither keeps a closure per instance (see
 * docs/benchmarks.md, "Memory per idle socket").
 *
 * Here: the connection's lifecycle, its subscriptions and inbox, and the dispatch of its frames.
 * A subscription is connect-subscription.ts; reading a frame, refusing a request and the
 * channel requests (publish, retract, moderation) are connect-frames.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { RawData } from 'ws';
import { publishLog } from '@rtm/bus';
import { ServiceError, isServiceError } from '@rtm/errors';
import { ConnectQuery } from '@rtm/schemas';
import { capabilityAllows } from '@rtm/rules';
import type { ZodApp } from '../zod-app.ts';
import type { EdgeDeps } from '../edge-deps.ts';
import type { SocketHandle } from '../socket-events.ts';
import { authenticateUser, verifyUserToken, type AuthDeps, type UserAuth } from '../auth/authenticate.ts';
import { environmentBan } from '../access/bans.ts';
import { mountSocketRoute, type AcceptDeps } from '../sessions/accept-link.ts';
import { InboxReplay, type InboxReplayDeps } from '../sessions/inbox-replay.ts';
import type { ReplayStart } from '../sessions/channel-replay.ts';
import type { AccessDeps } from '../access/channel-access.ts';
import type { PublishDeps } from '../channels/publish.ts';
import type { Sessions } from '../sessions/sessions.ts';
import type { SessionMetrics } from '../sessions/session-metrics.ts';
import type { Link } from '../sessions/link.ts';
import { SOCKET_CLOSE, SOCKET_CLOSE_WITH, closingFor, type Closing } from './close-codes.ts';
import { EarlyFrames } from './early-frames.ts';
import { command, moderate, presenceEntry, readConnectFrame, refusalFrame, type Frame, type Ref, type RequestOwner } from './connect-frames.ts';
import { Subscription, type SubscriptionOwner } from './connect-subscription.ts';

/** What a multiplexed connection and its subscriptions use: token checks, access, publishing, both replays, limits, the bus and the log. */
export type ConnectDeps = AuthDeps &
  AccessDeps &
  PublishDeps &
  InboxReplayDeps &
  Pick<EdgeDeps, 'events' | 'limits' | 'log' | 'nc' | 'reads' | 'sessionMetrics' | 'usage'>;

/** One multiplexed connection; it is its own handle for kicks (SocketHandle), with no closure of its own. */
export class Connection implements SocketHandle, SubscriptionOwner, RequestOwner {
  readonly deps: ConnectDeps;
  readonly sessions: Sessions;
  readonly link: Link;
  /** What the live log calls it: `connect` (a WebSocket) or `events` (an event stream, sockets/events-stream.ts). */
  readonly kind: 'connect' | 'events';
  readonly metrics: SessionMetrics;
  private current: UserAuth | undefined;
  /**
   * Its subscriptions by channel: the first alone, a Map from the second on (most connections
   * of a large fleet hold one or two, and an empty Map is ~300 bytes).
   */
  private only: Subscription | undefined;
  private many: Map<string, Subscription> | undefined;
  private inbox: InboxReplay | undefined;
  /** Frames that arrive while it opens; dropped once it is open (nothing of it is needed after). */
  private early: EarlyFrames | undefined = new EarlyFrames();
  private opened = false;

  constructor(deps: ConnectDeps, sessions: Sessions, link: Link, kind: 'connect' | 'events' = 'connect') {
    this.deps = deps;
    this.sessions = sessions;
    this.link = link;
    this.kind = kind;
    this.metrics = deps.sessionMetrics;
  }

  // the handle kicks reach it through
  get socketId(): string {
    return this.link.socketId;
  }
  get environmentId(): string {
    return this.current?.environmentId ?? '';
  }
  get userId(): string {
    return this.current?.userId ?? '';
  }
  get anon(): boolean {
    return this.current?.anon ?? false;
  }
  close(closing: Closing): void {
    this.link.closeWith(closing);
  }
  /** Banned from the whole environment: the connection goes, not just one channel. */
  revoke(_code: 'banned' | 'forbidden', reason: string): void {
    this.link.closeWith(SOCKET_CLOSE_WITH.revoked(reason));
  }

  private subscription(channelId: string): Subscription | undefined {
    if (this.many) return this.many.get(channelId);
    return this.only?.channelId === channelId ? this.only : undefined;
  }

  private get subscriptionCount(): number {
    return this.many ? this.many.size : this.only ? 1 : 0;
  }

  /** Every subscription, copied (ending one changes the set). */
  private allSubscriptions(): Subscription[] {
    if (this.many) return [...this.many.values()];
    return this.only ? [this.only] : [];
  }

  private keep(subscription: Subscription): void {
    if (this.many) this.many.set(subscription.channelId, subscription);
    else if (!this.only) this.only = subscription;
    else {
      this.many = new Map([
        [this.only.channelId, this.only],
        [subscription.channelId, subscription],
      ]);
      this.only = undefined;
    }
  }

  get auth(): UserAuth {
    if (!this.current) throw new Error('connection not authenticated');
    return this.current;
  }

  onMessage(data: RawData, isBinary: boolean): void {
    if (!this.link.admit(data)) return;
    const early = this.early?.hold(data, isBinary) ?? 'live';
    if (early === 'over') this.link.closeWith(SOCKET_CLOSE.tooEarly);
    else if (early === 'live') this.onFrame(data, isBinary);
  }

  async open(request: FastifyRequest): Promise<void> {
    try {
      const query = ConnectQuery.safeParse(request.query ?? {});
      if (!query.success) {
        const issue = query.error.issues[0];
        throw new ServiceError('invalid_request', `query${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message}`);
      }
      if (!(await this.begin(await authenticateUser(this.deps, request)))) return;
      const held = this.early?.release() ?? [];
      this.early = undefined;
      for (const [data, isBinary] of held) this.onFrame(data, isBinary);
    } catch (error) {
      this.link.closeWith(this.refusal(error));
    }
  }

  /**
   * Admits an authenticated connection and greets it with `connected`: the same steps for
   * `/v1/connect` and `/v1/events`. False when its link closed meanwhile; a refusal throws (see
   * `refusal`). `settled`, when given, is waited for before the greeting (an event stream waits
   * for its socket quotas, so a refusal is still an HTTP answer).
   */
  async begin(auth: UserAuth, settled?: (link: Link) => Promise<void>): Promise<boolean> {
    this.current = auth;
    // the quota, revocation and ban reads wait their environment's turn (sessions.admission)
    const ban = await this.sessions.admission.run(auth.environmentId, async () => {
      if (this.link.closed) return undefined;
      await this.sessions.admit(this.link, auth, 'connect');
      if (this.link.closed) return undefined;
      this.opened = true;
      this.deps.events.emit('connect.open', this);
      await this.sessions.feed.flush();
      // checked only now that environment kicks reach this connection: a ban committed after this
      // read is kicked, one committed before it is seen here
      return environmentBan(this.deps.pool, auth.environmentId, auth.userId);
    });
    if (this.link.closed) return false;
    if (ban) throw new ServiceError('banned', ban.reason ?? 'banned from this environment');
    if (settled) await settled(this.link);
    if (this.link.closed) return false;
    this.link.established();
    this.link.send({ op: 'connected', connectionId: this.link.socketId, userId: auth.userId, expiresAt: auth.claims.expiresAt.toISOString() });
    publishLog(this.deps.nc, this.deps.subjects, auth.environmentId, 'info', 'socket.opened', {
      socket: this.kind,
      userId: auth.userId,
      socketId: this.link.socketId,
    });
    return true;
  }

  /** A refusal at open, told to the environment's live log: the close it calls for. */
  refusal(error: unknown): Closing {
    const closing = closingFor(error);
    if (!isServiceError(error)) this.deps.log.warn({ err: error }, `${this.kind} socket open failed`);
    if (this.current) {
      publishLog(this.deps.nc, this.deps.subjects, this.current.environmentId, 'warn', 'socket.refused', {
        socket: this.kind,
        userId: this.current.userId,
        code: closing.code,
        reason: isServiceError(error) ? error.code : 'unavailable',
      });
    }
    return closing;
  }

  /** Handled synchronously up to the first await, so subscribe/unsubscribe of a channel apply in arrival order. */
  private onFrame(data: RawData, isBinary: boolean): void {
    const read = readConnectFrame(data, isBinary);
    if ('error' in read) return this.send(read.error);
    const { frame, text } = read;
    switch (frame.op) {
      case 'ping':
        return this.send(frame.ref === undefined ? { op: 'pong' } : { op: 'pong', ref: frame.ref });
      case 'subscribe':
        return this.subscribe(frame.ref, frame.channelId, { since: frame.since, rewind: frame.rewind }, frame.occupancy === true, frame.delta !== undefined);
      case 'unsubscribe':
        this.subscription(frame.channelId)?.end();
        return this.send({ op: 'unsubscribed', ref: frame.ref, channelId: frame.channelId });
      case 'publish':
      case 'retract':
      case 'edit':
      case 'react':
      case 'unreact':
        return void command(this, frame, text);
      case 'remove-member':
      case 'ban-member':
      case 'unban-member':
        return void moderate(this, frame);
      case 'presence-enter':
      case 'presence-update':
      case 'presence-leave':
        return void presenceEntry(this, this.sessions.presence, frame, this.subscription(frame.channelId));
      case 'subscribe-inbox':
        return void this.subscribeInbox(frame.ref, frame.since);
      case 'unsubscribe-inbox':
        this.inbox?.stop();
        this.inbox = undefined;
        return this.send({ op: 'inbox-unsubscribed', ref: frame.ref });
      case 'auth':
        return void this.renew(frame);
    }
  }

  /** A `subscribe` frame, or one channel of an event stream's query (no ref); `start`: its `since` or `rewind`. */
  subscribe(ref: Ref | undefined, channelId: string, start: ReplayStart, occupancy: boolean, delta = false): void {
    if (this.subscription(channelId)) {
      return this.refuse(ref, channelId, new ServiceError('invalid_request', 'already subscribed to this channel on this connection'));
    }
    const limit = this.deps.config.MAX_SUBSCRIPTIONS;
    if (this.subscriptionCount >= limit) {
      return this.refuse(ref, channelId, new ServiceError('rate_limited', `at most ${limit} subscriptions per connection`));
    }
    const subscription = new Subscription(this, channelId, delta);
    this.keep(subscription);
    void subscription.start(ref, start, occupancy);
  }

  forget(subscription: Subscription): void {
    if (this.only === subscription) this.only = undefined;
    else if (this.many?.get(subscription.channelId) === subscription) this.many.delete(subscription.channelId);
  }

  /** A `subscribe-inbox` frame, or an event stream's `inbox=` (no ref). */
  async subscribeInbox(ref: Ref | undefined, since: string | undefined): Promise<void> {
    if (this.inbox) return this.refuse(ref, undefined, new ServiceError('invalid_request', 'the inbox is already subscribed on this connection'));
    const auth = this.auth;
    const reader = new InboxReplay(this.deps, this.sessions.feed, this.link, auth.environmentId, auth.userId);
    this.inbox = reader;
    try {
      await reader.listen();
      if (this.inbox !== reader || !(await reader.replay(since)) || this.inbox !== reader) return;
      reader.live();
      this.send(ref === undefined ? { op: 'inbox-subscribed' } : { op: 'inbox-subscribed', ref });
    } catch (error) {
      if (this.inbox !== reader) return;
      reader.stop();
      this.inbox = undefined;
      this.refuse(ref, undefined, error);
    }
  }

  /**
   * A presence entry asked for over HTTP (presence/entry-requests.ts): what the frame would do for
   * this connection's subscription of the channel, with its answer or its refusal.
   */
  async presenceRequest(op: 'presence-enter' | 'presence-leave', channelId: string, data: unknown): Promise<{ ok: true } | { error: unknown }> {
    let outcome: { ok: true } | { error: unknown } = { error: new ServiceError('unavailable', 'no answer') };
    const owner: RequestOwner = {
      deps: this.deps,
      auth: this.auth,
      send: () => (outcome = { ok: true }),
      refuse: (_ref, _channelId, error) => (outcome = { error }),
    };
    const frame = op === 'presence-leave' ? { op, ref: 0, channelId } : { op, ref: 0, channelId, data };
    await presenceEntry(owner, this.sessions.presence, frame, this.subscription(channelId));
    return outcome;
  }

  /** `auth`: the same user and environment take over with a new expiry; anyone else is 4401. */
  private async renew(frame: Frame<'auth'>): Promise<void> {
    let next: UserAuth;
    try {
      next = await verifyUserToken(this.deps, frame.token);
    } catch (error) {
      return this.refuse(frame.ref, undefined, error);
    }
    const auth = this.auth;
    if (next.environmentId !== auth.environmentId || next.userId !== auth.userId) {
      return this.link.closeWith(SOCKET_CLOSE.authMismatch);
    }
    this.current = next;
    this.link.expireAt(next.claims.expiresAt);
    // revocations now judge the connection by its newest token
    this.sessions.tokens.watch(this.link, next.claims);
    // the new token's capabilities apply at once: subscriptions it does not grant end
    for (const subscription of this.allSubscriptions()) {
      if (!capabilityAllows(next.claims.capabilities, subscription.channelId, 'subscribe')) {
        subscription.end({ code: 'forbidden', reason: "the renewed token's capabilities do not grant subscribe on this channel" });
      }
    }
    this.send({ op: 'authenticated', ref: frame.ref, expiresAt: next.claims.expiresAt.toISOString() });
  }

  /** An error frame for one request; the connection stays open. */
  refuse(ref: Ref | undefined, channelId: string | undefined, error: unknown): void {
    if (!isServiceError(error)) this.deps.log.warn({ err: error }, 'connect socket request failed');
    this.send(refusalFrame(ref, channelId, error));
  }

  send(frame: object): void {
    this.link.send(frame);
  }

  onClose(code: number): void {
    this.early?.release();
    this.early = undefined;
    for (const subscription of this.allSubscriptions()) subscription.end();
    this.inbox?.stop();
    this.inbox = undefined;
    if (!this.opened) return;
    this.opened = false;
    this.deps.events.emit('connect.close', this);
    publishLog(this.deps.nc, this.deps.subjects, this.auth.environmentId, 'info', 'socket.closed', {
      socket: this.kind,
      userId: this.auth.userId,
      socketId: this.link.socketId,
      code,
    });
  }
}

/** Realtime edge: the multiplexed socket (documented in docs/protocol.md and docs/asyncapi.yaml). */
export async function connectSocketRoutes(app: ZodApp, deps: ConnectDeps & AcceptDeps) {
  const sessions = deps.sessions;
  mountSocketRoute(app, deps, 'connect', '/v1/connect', (link) => new Connection(deps, sessions, link));
}
