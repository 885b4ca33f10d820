import type { GatewayConfig } from '@rtm/config';
import { Reads, type Pool } from '@rtm/db';
import { Requester, subjects, type NatsConnection, type Subjects } from '@rtm/bus';
import { CredentialStore, KeyUsage, TenantKeys, TokenRevocations } from '@rtm/auth';
import { OwnerClient } from '@rtm/owner-client';
import { counterOf, counterSpec, type Logger } from '@rtm/ops';
import { HostResolver } from '@rtm/rules';
import type { Registry } from 'prom-client';
import { NO_USAGE, type Usage } from '@rtm/usage';
import { SocketEvents } from './socket-events.ts';
import { GatewayLimits } from './limits/gateway-limits.ts';
import { publishSeconds } from './channels/publish.ts';
import { StandingLoader } from './access/standing-loader.ts';
import { AccessCache } from './access/access-cache.ts';
import { createSessions, type Sessions } from './sessions/sessions.ts';
import { createSessionMetrics, type SessionMetrics } from './sessions/session-metrics.ts';

/** What the edge's sockets, sessions and publish path are built with (each part takes a `Pick<>` of it). */
export interface EdgeDeps {
  config: GatewayConfig;
  /** The primary: every write, and every read that is part of a write decision (docs/read-replicas.md). */
  pool: Pool;
  /** History, replay pages, rosters, ledger pages, the dashboard's browsing: on the read pool when it is current. */
  reads: Reads;
  nc: NatsConnection;
  /** Requests to channel owners over `nc` (one reply subscription for all of them). */
  requester: Requester;
  /** Commands to channel owners, gathered per event-loop turn and partition (libs/owner-client); started by the gateway's services. */
  owners: OwnerClient;
  /** Users' standings on channels, read in batches (access/standing-loader.ts). */
  standings: StandingLoader;
  /** Access decisions, reused for ACCESS_CACHE_MS and dropped on announced changes. */
  accessCache: AccessCache;
  /** Live sockets: registry, channel feeds, kicks, presence, send budget. */
  sessions: Sessions;
  sessionMetrics: SessionMetrics;
  subjects: Subjects;
  credentials: CredentialStore;
  /** Revoked user tokens, cached per environment and updated over the bus (`subjects.revocations`). */
  revocations: TokenRevocations;
  /** Public keys (JWKs, JWKS URLs) environments sign their own user tokens with. */
  tenantKeys: TenantKeys;
  log: Logger;
  metrics: Registry;
  /** Socket lifecycle events within this gateway. */
  events: SocketEvents;
  /** Rate limits and socket quotas. */
  limits: GatewayLimits;
  /** The gateway's usage meter (libs/usage, docs/stats.md): deliveries, connections, requests, presence, history. */
  usage: Usage;
}

/**
 * The edge's parts from a gateway's connections, in dependency order (sessions last, from the
 * rest; no cast, no half-built object). Building them has no side effects (no query, no
 * subscription): whatever must run (subscriptions, timers) is started by the gateway's services.
 */
export function createEdgeDeps(parts: {
  config: GatewayConfig;
  pool: Pool;
  readPool?: Pool | undefined;
  nc: NatsConnection;
  log: Logger;
  metrics: Registry;
  /** Unset: nothing counted (the offline build of the documents). */
  usage?: Usage;
}): EdgeDeps {
  const { config, pool, nc, metrics } = parts;
  const lookups = counterOf(metrics, {
    ...counterSpec('gateway_credential_cache_lookups_total'),
  });
  publishSeconds(metrics);
  const busSubjects = subjects(config.NATS_PREFIX);
  const requester = new Requester(nc);
  const reads = counterOf(metrics, {
    ...counterSpec('postgres_reads_total'),
  });
  const { readPool, usage, ...rest } = parts;
  const base: Omit<EdgeDeps, 'sessions'> = {
    ...rest,
    usage: usage ?? NO_USAGE,
    reads: new Reads(pool, readPool, (read, served) => reads.inc({ read, pool: served.pool, reason: served.reason })),
    requester,
    owners: new OwnerClient({
      nc,
      requester,
      subjects: busSubjects,
      partitions: config.PARTITIONS,
      ownerTimeoutMs: config.OWNER_TIMEOUT_MS,
      requests: counterOf(metrics, {
        ...counterSpec('gateway_owner_requests_total'),
      }),
      // under load, fuller bundles (OWNER_LINGER_MS, OWNER_FILL: docs/channels.md)
      linger: { maxMs: config.OWNER_LINGER_MS, fill: config.OWNER_FILL },
      lingered: counterOf(metrics, {
        ...counterSpec('gateway_owner_bundles_lingered_total'),
      }),
    }),
    standings: new StandingLoader(pool),
    subjects: busSubjects,
    credentials: new CredentialStore(pool, config.CREDENTIAL_CACHE_MS, (result) => lookups.inc({ result }), KeyUsage.forPool(pool)),
    revocations: new TokenRevocations(pool, config.CREDENTIAL_CACHE_MS),
    tenantKeys: new TenantKeys(pool, config.CREDENTIAL_CACHE_MS, {
      allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
      minRefetchMs: config.TOKEN_JWKS_REFETCH_MS,
      // c-ares, not the thread pool password hashing uses
      resolver: new HostResolver({
        servers: config.DNS_SERVERS,
        timeoutMs: config.DNS_TIMEOUT_MS,
        tries: config.DNS_TRIES,
        allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
      }),
    }),
    events: new SocketEvents(),
    limits: new GatewayLimits({ ...parts, requester, subjects: busSubjects }),
    sessionMetrics: createSessionMetrics(metrics),
    accessCache: new AccessCache({ ttlMs: config.ACCESS_CACHE_MS, nc, subjects: busSubjects }),
  };
  return { ...base, sessions: createSessions(base) };
}
