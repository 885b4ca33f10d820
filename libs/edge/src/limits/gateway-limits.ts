/**
 * The gateway's side of rate limits and socket quotas (the rules and their arithmetic live in
 * @rtm/limits; docs/limits.md lists them). Built without side effects; `start()` subscribes and
 * starts timers, `stop()` undoes both. What it enforces:
 * - every request with a secret key: secretKeyRequestsPerSecond per key;
 * - anonymous mints with a publishable key: per key and per (environment, client IP);
 * - publishes: userPublishesPerSecond per user (HTTP here, sockets through `admitPublish`),
 *   weighted by the message's mentions (`publishUnits`), and environmentMessagesPerSecond for
 *   every source;
 * - edge reads of a user (history and inbox weighted by page size, roster, retract, moderation; HTTP here,
 *   socket frames through `admitEdge`): the operation's own per-user limit, then
 *   environmentEdgeReadsPerSecond for all users of the environment together (EDGE_LIMITS);
 * - socket opens: userSocketOpensPerSecond per user, before the socket goes live
 *   (`admitSocketOpen`, called from Sessions.admit);
 * - sockets: socketsPerUser and socketsPerEnvironment (channel, inbox, multiplexed and logs
 *   sockets); a socket over either is closed with 4429 as soon as it opens.
 * A refused request is 429 `rate_limited` with `retry-after` (the end of the one-second window).
 */
import type { FastifyRequest } from 'fastify';
import type { Counter, Registry } from 'prom-client';
import { encodeToken, type NatsConnection, type Requester, type Subjects, type Subscription } from '@rtm/bus';
import { newId, type Pool } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { SOCKET_CLOSE } from '../sockets/close-codes.ts';
import {
  EnvironmentLimits,
  KvCasStore,
  LiveGateways,
  RateLimiter,
  REFRESH_MS,
  SocketQuota,
  EDGE_LIMITS,
  EDGE_TOTAL_LIMIT,
  decodeInvalidation,
  historyUnits,
  publishUnits,
  type EdgeOperation,
} from '@rtm/limits';
import type { LimitName, Limits } from '@rtm/rules';
import { HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX } from '@rtm/schemas';
import type { GatewayConfig } from '@rtm/config';
import { counterOf, counterSpec, type Logger } from '@rtm/ops';
import type { ZodApp, Host } from '../zod-app.ts';
import type { SocketEvents, SocketHandle } from '../socket-events.ts';

/** A limit, the key it counts under, and the units this event takes (1 unless weighted). */
type Check = [LimitName, string, number?];

const PUBLISH_ROUTE = '/v1/channels/:channelId/messages';
/** An edit counts as a publish: it sends new content through the channel's owner. */
const EDIT_ROUTE = '/v1/channels/:channelId/messages/:messageId';

/** The realtime edge's routes counted by an edge limit (user tokens only), by method and route. */
const EDGE_ROUTES: Readonly<Record<string, EdgeOperation>> = {
  'GET /v1/channels/:channelId/history': 'history',
  'GET /v1/inbox': 'inbox',
  'GET /v1/channels/:channelId/members': 'roster',
  'GET /v1/channels/:channelId/occupancy': 'roster',
  'DELETE /v1/channels/:channelId/messages/:messageId': 'retract',
  'POST /v1/channels/:channelId/messages/:messageId/reactions': 'react',
  'DELETE /v1/channels/:channelId/messages/:messageId/reactions/:type': 'react',
  'DELETE /v1/channels/:channelId/members/:userId': 'moderation',
  'PUT /v1/channels/:channelId/bans/:userId': 'moderation',
  'DELETE /v1/channels/:channelId/bans/:userId': 'moderation',
};

/**
 * The page size a history or inbox request asks for (both 50 by default, 500 at most), read from the raw query before validation: the
 * default when absent, the largest page when it is not a usable number (validation then refuses
 * it anyway, after the units are taken).
 */
function pageLimitOf(query: unknown): number {
  const raw = (query as { limit?: unknown } | undefined)?.limit;
  if (raw === undefined) return HISTORY_LIMIT_DEFAULT;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, HISTORY_LIMIT_MAX) : HISTORY_LIMIT_MAX;
}

const userKey = (environmentId: string, userId: string) => encodeToken(`${environmentId}\u0000${userId}`);

function refusedCounter(registry: Registry): Counter<'limit'> {
  return counterOf(registry, {
    ...counterSpec('gateway_rate_limited_total'),
  });
}

/** The user's own limit for the operation, then the environment's total, both taking `units`. */
function edgeChecks(environmentId: string, userId: string, operation: EdgeOperation, units: number): Check[] {
  return [
    [EDGE_LIMITS[operation], userKey(environmentId, userId), units],
    [EDGE_TOTAL_LIMIT, encodeToken(environmentId), units],
  ];
}

/** How many users a publish body mentions (0 for anything that is not a list). */
function mentionsOf(body: unknown): number {
  const mentions = (body as { mentions?: unknown } | null | undefined)?.mentions;
  return Array.isArray(mentions) ? mentions.length : 0;
}

/**
 * The socket quotas an open socket holds: how many of socketQuotas(handle) it has acquired, in
 * order. Not the keys themselves: they are computed again at release (a socket's environment and
 * user do not change), so an idle socket keeps no array or key strings of its own here.
 */
interface HeldQuotas {
  acquired: number;
  closed: boolean;
}

/** The quotas a socket counts in, in the order they are acquired (and their keys in the quota store). */
function socketQuotas(handle: SocketHandle): [LimitName, string][] {
  const env = handle.environmentId;
  return [
    ['socketsPerUser', `u.${encodeToken(`${env}\u0000${handle.userId}`)}`],
    ['socketsPerEnvironment', `e.${encodeToken(env)}`],
  ];
}

export class GatewayLimits {
  readonly gatewayId = newId('gw');
  private readonly environments: EnvironmentLimits;
  private readonly live: LiveGateways;
  private readonly rates: RateLimiter;
  private readonly quota: SocketQuota;
  private readonly refused: Counter<'limit'>;
  private readonly log: Logger;
  private readonly nc: NatsConnection;
  private readonly subjects: Subjects;
  private readonly sockets = new Map<string, HeldQuotas>();
  /** The quota checks still running, by socket id: kept only while they run (see quotasChecked). */
  private readonly checking = new Map<string, Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private subscription: Subscription | undefined;
  private events: SocketEvents | undefined;
  private storeWarned = 0;

  constructor(parts: { config: GatewayConfig; pool: Pool; nc: NatsConnection; requester: Requester; subjects: Subjects; log: Logger; metrics: Registry }) {
    const prefix = parts.config.NATS_PREFIX;
    this.log = parts.log;
    this.nc = parts.nc;
    this.subjects = parts.subjects;
    this.environments = new EnvironmentLimits(parts.pool, parts.config.CREDENTIAL_CACHE_MS);
    this.live = new LiveGateways(parts.nc, `${prefix}.limits.alive`, this.gatewayId);
    const onStoreError = (error: unknown) => {
      // at most one line per 10 s while the store is down
      if (Date.now() - this.storeWarned < 10_000) return;
      this.storeWarned = Date.now();
      this.log.warn({ err: error }, 'limit store unreachable: admitting from local shares');
    };
    const liveGateways = () => this.live.count();
    this.rates = new RateLimiter({
      store: new KvCasStore(parts.nc, `${prefix}_limits`, { ttlMs: 5_000, deadlineMs: 500, requester: parts.requester }),
      liveGateways,
      onStoreError,
    });
    this.quota = new SocketQuota({
      store: new KvCasStore(parts.nc, `${prefix}_sockets`, { ttlMs: 60_000, deadlineMs: 500, requester: parts.requester }),
      gatewayId: this.gatewayId,
      liveGateways,
      isLive: (gateway) => this.live.isLive(gateway),
      onStoreError,
    });
    this.refused = refusedCounter(parts.metrics);
  }

  start(events: SocketEvents): void {
    this.live.start();
    this.timers = [setInterval(() => this.rates.sweep(), 1_000), setInterval(() => void this.quota.refresh(), REFRESH_MS)];
    for (const timer of this.timers) timer.unref();
    this.subscription = this.nc.subscribe(this.subjects.invalidate, {
      callback: (_error, msg) => this.environments.invalidate(decodeInvalidation(msg.data)),
    });
    this.events = events;
    events.on('channel.open', this.onSocketOpen);
    events.on('inbox.open', this.onSocketOpen);
    events.on('connect.open', this.onSocketOpen);
    events.on('connect.close', this.onSocketClose);
    events.on('channel.close', this.onSocketClose);
    events.on('inbox.close', this.onSocketClose);
    events.on('logs.open', this.onSocketOpen);
    events.on('logs.close', this.onSocketClose);
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.subscription?.unsubscribe();
    this.live.stop();
    this.events?.off('channel.open', this.onSocketOpen);
    this.events?.off('inbox.open', this.onSocketOpen);
    this.events?.off('connect.open', this.onSocketOpen);
    this.events?.off('connect.close', this.onSocketClose);
    this.events?.off('channel.close', this.onSocketClose);
    this.events?.off('inbox.close', this.onSocketClose);
    this.events?.off('logs.open', this.onSocketOpen);
    this.events?.off('logs.close', this.onSocketClose);
  }

  /** Forgets an environment's cached limits (this gateway; the bus tells the others). */
  invalidate(environmentId: string): void {
    this.environments.invalidate(environmentId);
  }

  /** Refuses requests over a limit before their body is read. */
  install(app: ZodApp, host: Host): void {
    app.addHook('preParsing', async (request, _reply, payload) => {
      const checks = this.checksOf(host, request);
      if (checks.length === 0) return payload;
      const environmentId = request.auth!.environmentId;
      await this.require(environmentId, checks);
      return payload;
    });
    if (host !== 'realtime') return;
    // a user's publish took one unit before its body was read; its mentions weigh the rest
    app.addHook('preHandler', async (request) => {
      const auth = request.auth;
      if (auth?.kind !== 'user' || request.method !== 'POST' || request.routeOptions.url !== PUBLISH_ROUTE) return;
      const extra = publishUnits(mentionsOf(request.body)) - 1;
      if (extra <= 0) return;
      await this.require(auth.environmentId, [['userPublishesPerSecond', userKey(auth.environmentId, auth.userId), extra]]);
    });
  }

  /**
   * One socket publish of a user carrying `mentions` mentioned users (weighted by publishUnits);
   * false: over a limit (the channel socket closes with 4429, /v1/connect answers an error frame).
   */
  async admitPublish(auth: { environmentId: string; userId: string }, mentions = 0): Promise<boolean> {
    const refused = await this.admit(auth.environmentId, [
      ['userPublishesPerSecond', userKey(auth.environmentId, auth.userId), publishUnits(mentions)],
      ['environmentMessagesPerSecond', encodeToken(auth.environmentId)],
    ]);
    return refused === null;
  }

  /**
   * One message of a batch publish: the per-message limits a single publish takes (the user's, on
   * the realtime edge, weighted by the message's mentions, and the environment's). The refused
   * limit, or null when admitted.
   */
  async admitMessage(environmentId: string, userId?: string, mentions = 0): Promise<LimitName | null> {
    const checks: Check[] = [];
    if (userId !== undefined) checks.push(['userPublishesPerSecond', userKey(environmentId, userId), publishUnits(mentions)]);
    checks.push(['environmentMessagesPerSecond', encodeToken(environmentId)]);
    return this.admit(environmentId, checks);
  }

  /**
   * One edge operation of a user made on a socket (a retract or moderation frame, the replay of a
   * `since`), taking `units` of its per-user limit and of the environment's total. Over either it
   * throws 429 `rate_limited` with `retryAfter: 1`.
   */
  async admitEdge(auth: { environmentId: string; userId: string }, operation: EdgeOperation, units = 1): Promise<void> {
    await this.require(auth.environmentId, edgeChecks(auth.environmentId, auth.userId, operation, units));
  }

  /**
   * One socket being opened by a user (channel, inbox or /v1/connect), before it goes live: over
   * userSocketOpensPerSecond it throws 429 `rate_limited`, which closes the socket with 4429.
   */
  async admitSocketOpen(auth: { environmentId: string; userId: string }): Promise<void> {
    await this.require(
      auth.environmentId,
      [['userSocketOpensPerSecond', userKey(auth.environmentId, auth.userId)]],
      'rate limited: sockets opened per second by this user',
    );
  }

  /** `admit`, throwing 429 `rate_limited` (`retryAfter: 1`, the window's end) for a refused check. */
  private async require(environmentId: string, checks: Check[], reason?: string): Promise<void> {
    const refused = await this.admit(environmentId, checks);
    if (refused) throw new ServiceError('rate_limited', reason ?? `over the ${refused} limit`, { retryAfter: 1 });
  }

  private checksOf(host: Host, request: FastifyRequest): Check[] {
    const auth = request.auth;
    if (!auth) return [];
    const env = auth.environmentId;
    const publishing =
      (request.method === 'POST' && request.routeOptions.url === PUBLISH_ROUTE) || (request.method === 'PATCH' && request.routeOptions.url === EDIT_ROUTE);
    const environmentMessages: Check = ['environmentMessagesPerSecond', encodeToken(env)];
    if (auth.kind === 'secret') {
      const checks: Check[] = [['secretKeyRequestsPerSecond', encodeToken(auth.keyId)]];
      if (publishing && host === 'control') checks.push(environmentMessages);
      return checks;
    }
    if (auth.kind !== 'user') {
      return [
        ['anonymousMintsPerIpPerSecond', encodeToken(`${env}\u0000${request.ip}`)],
        ['anonymousMintsPerKeyPerSecond', encodeToken(auth.keyId)],
      ];
    }
    if (host !== 'realtime') return [];
    if (publishing) return [['userPublishesPerSecond', userKey(env, auth.userId)], environmentMessages];
    const operation = EDGE_ROUTES[`${request.method} ${request.routeOptions.url}`];
    if (!operation) return [];
    const units = operation === 'history' || operation === 'inbox' ? historyUnits(pageLimitOf(request.query)) : 1;
    return edgeChecks(env, auth.userId, operation, units);
  }

  /** The first limit that refuses, or null when every one admits. */
  private async admit(environmentId: string, checks: Check[]): Promise<LimitName | null> {
    const limits: Limits = await this.environments.of(environmentId);
    for (const [name, key, units] of checks) {
      if (!(await this.rates.take(name, key, limits[name], units))) {
        this.refused.inc({ limit: name });
        return name;
      }
    }
    return null;
  }

  private readonly onSocketOpen = (handle: SocketHandle): void => {
    const held: HeldQuotas = { acquired: 0, closed: false };
    this.sockets.set(handle.socketId, held);
    const checked = this.acquireSocket(handle, held)
      .catch((error: unknown) => this.log.warn({ err: error }, 'socket quota check failed'))
      .finally(() => this.checking.delete(handle.socketId));
    this.checking.set(handle.socketId, checked);
  };

  /**
   * Resolves once the socket quotas of an open socket are checked (a socket over one is closed by
   * then): an event stream waits for it so that a refusal is still its HTTP answer, 429.
   */
  async quotasChecked(socketId: string): Promise<void> {
    await this.checking.get(socketId);
  }

  private async acquireSocket(handle: SocketHandle, held: HeldQuotas): Promise<void> {
    const limits = await this.environments.of(handle.environmentId);
    for (const [name, key] of socketQuotas(handle)) {
      if (held.closed) return;
      if (!(await this.quota.acquire(key, limits[name]))) {
        this.refused.inc({ limit: name });
        handle.close(name === 'socketsPerUser' ? SOCKET_CLOSE.userSocketsFull : SOCKET_CLOSE.environmentSocketsFull);
        return;
      }
      if (held.closed) return this.quota.release(key);
      held.acquired++;
    }
  }

  private readonly onSocketClose = (handle: SocketHandle): void => {
    const held = this.sockets.get(handle.socketId);
    if (!held) return;
    this.sockets.delete(handle.socketId);
    held.closed = true;
    const quotas = socketQuotas(handle);
    for (let at = 0; at < held.acquired; at++) this.quota.release(quotas[at]![1]);
    held.acquired = 0;
  };
}
