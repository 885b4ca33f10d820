/**
 * The gateway's side of rate limits and socket quotas (the rules and their arithmetic live in
 * @rtm/limits; docs/limits.md lists them). Built without side effects; `start()` subscribes and
 * starts timers, `stop()` undoes both. What it enforces:
 * - every request with a secret key: secretKeyRequestsPerSecond per key;
 * - anonymous mints with a publishable key: per key and per (environment, client IP);
 * - publishes: userPublishesPerSecond per user (HTTP here, sockets through `admitPublish`) and
 *   environmentMessagesPerSecond for every source;
 * - sockets: socketsPerUser and socketsPerEnvironment (channel, inbox, multiplexed and logs
 *   sockets); a socket over either is closed with 4429 as soon as it opens.
 * A refused request is 429 `rate_limited` with `retry-after` (the end of the one-second window).
 */
import type { FastifyRequest } from 'fastify';
import type { Counter, Registry } from 'prom-client';
import { encodeToken, type NatsConnection, type Subjects, type Subscription } from '@rtm/bus';
import { newId, type Pool } from '@rtm/db';
import { CLOSE, ServiceError } from '@rtm/errors';
import {
  EnvironmentLimits,
  KvCasStore,
  LiveGateways,
  RateLimiter,
  REFRESH_MS,
  SocketQuota,
  decodeInvalidation,
  type LimitName,
  type Limits,
} from '@rtm/limits';
import type { GatewayConfig } from '@rtm/config';
import { counterOf, type Logger } from '@rtm/ops';
import type { ZodApp, Host } from '../http/public-app.ts';
import type { SocketEvents, SocketHandle } from '../socket-events.ts';

type Check = [LimitName, string];

const PUBLISH_ROUTE = '/v1/channels/:channelId/messages';

function refusedCounter(registry: Registry): Counter<'limit'> {
  return counterOf(registry, {
    name: 'gateway_rate_limited_total',
    help: 'Requests, socket publishes and sockets refused by a rate limit or quota, by limit',
    labelNames: ['limit'],
  });
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
  private readonly sockets = new Map<string, { keys: string[]; closed: boolean }>();
  private timers: NodeJS.Timeout[] = [];
  private subscription: Subscription | undefined;
  private events: SocketEvents | undefined;
  private storeWarned = 0;

  constructor(parts: { config: GatewayConfig; pool: Pool; nc: NatsConnection; subjects: Subjects; log: Logger; metrics: Registry }) {
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
      store: new KvCasStore(parts.nc, `${prefix}_limits`, { ttlMs: 5_000, deadlineMs: 500 }),
      liveGateways,
      onStoreError,
    });
    this.quota = new SocketQuota({
      store: new KvCasStore(parts.nc, `${prefix}_sockets`, { ttlMs: 60_000, deadlineMs: 500 }),
      gatewayId: this.gatewayId,
      liveGateways,
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
      const refused = await this.admit(environmentId, checks);
      if (refused) throw new ServiceError('rate_limited', `over the ${refused} limit`, { retryAfter: 1 });
      return payload;
    });
  }

  /** One socket publish of a user; false: over a limit (the socket closes with 4429). */
  async admitPublish(auth: { environmentId: string; userId: string }): Promise<boolean> {
    const refused = await this.admit(auth.environmentId, [
      ['userPublishesPerSecond', encodeToken(`${auth.environmentId}\u0000${auth.userId}`)],
      ['environmentMessagesPerSecond', encodeToken(auth.environmentId)],
    ]);
    return refused === null;
  }

  /**
   * One message of a batch publish: the per-message limits a single publish takes (the user's, on
   * the realtime edge, and the environment's). The refused limit, or null when admitted.
   */
  async admitMessage(environmentId: string, userId?: string): Promise<LimitName | null> {
    const checks: Check[] = [];
    if (userId !== undefined) checks.push(['userPublishesPerSecond', encodeToken(`${environmentId}\u0000${userId}`)]);
    checks.push(['environmentMessagesPerSecond', encodeToken(environmentId)]);
    return this.admit(environmentId, checks);
  }

  private checksOf(host: Host, request: FastifyRequest): Check[] {
    const auth = request.auth;
    if (!auth) return [];
    const env = auth.environmentId;
    const publishing = request.method === 'POST' && request.routeOptions.url === PUBLISH_ROUTE;
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
    if (publishing && host === 'realtime') {
      return [['userPublishesPerSecond', encodeToken(`${env}\u0000${auth.userId}`)], environmentMessages];
    }
    return [];
  }

  /** The first limit that refuses, or null when every one admits. */
  private async admit(environmentId: string, checks: Check[]): Promise<LimitName | null> {
    const limits: Limits = await this.environments.of(environmentId);
    for (const [name, key] of checks) {
      if (!(await this.rates.take(name, key, limits[name]))) {
        this.refused.inc({ limit: name });
        return name;
      }
    }
    return null;
  }

  private readonly onSocketOpen = (handle: SocketHandle): void => {
    const held = { keys: [] as string[], closed: false };
    this.sockets.set(handle.socketId, held);
    void this.acquireSocket(handle, held).catch((error: unknown) => this.log.warn({ err: error }, 'socket quota check failed'));
  };

  private async acquireSocket(handle: SocketHandle, held: { keys: string[]; closed: boolean }): Promise<void> {
    const env = handle.environmentId;
    const limits = await this.environments.of(env);
    const quotas: [LimitName, string][] = [
      ['socketsPerUser', `u.${encodeToken(`${env}\u0000${handle.userId}`)}`],
      ['socketsPerEnvironment', `e.${encodeToken(env)}`],
    ];
    for (const [name, key] of quotas) {
      if (held.closed) return;
      if (!(await this.quota.acquire(key, limits[name]))) {
        this.refused.inc({ limit: name });
        handle.close(CLOSE.rateLimited, name === 'socketsPerUser' ? 'too many sockets for this user' : 'too many sockets in this environment');
        return;
      }
      if (held.closed) return this.quota.release(key);
      held.keys.push(key);
    }
  }

  private readonly onSocketClose = (handle: SocketHandle): void => {
    const held = this.sockets.get(handle.socketId);
    if (!held) return;
    this.sockets.delete(handle.socketId);
    held.closed = true;
    for (const key of held.keys.splice(0)) this.quota.release(key);
  };
}
