import type { GatewayConfig } from '@rtm/config';
import type { Pool } from '@rtm/db';
import { Requester, subjects, type NatsConnection, type Subjects } from '@rtm/bus';
import { CredentialStore, KeyUsage, TenantKeys, TokenRevocations } from '@rtm/auth';
import { encodeInvalidation } from '@rtm/limits';
import type { SecretKeyring } from '@rtm/webhooks';
import { counterOf, type Logger } from '@rtm/ops';
import type { Registry } from 'prom-client';
import { SocketEvents } from './socket-events.ts';
import { GatewayLimits } from './limits/gateway-limits.ts';
import { Dashboard } from './dashboard/dashboard.ts';
import { PublicEndpoint } from './http/public-endpoint.ts';
import { publishSeconds } from './channels/publish.ts';
import { OwnerClient } from '@rtm/owner-client';
import { StandingLoader } from './access/standing-loader.ts';
import { AccessCache } from './access/access-cache.ts';
import { createSessions, type Sessions } from './sessions/sessions.ts';
import { revokeLogsTokens } from './auth/logs-access.ts';
import { createSessionMetrics, type SessionMetrics } from './sessions/session-metrics.ts';

/** What every route group and socket handler of the gateway is built with. */
export interface GatewayDeps {
  config: GatewayConfig;
  pool: Pool;
  nc: NatsConnection;
  /** Requests to channel owners over `nc` (one reply subscription for all of them). */
  requester: Requester;
  /** Commands to channel owners, gathered per event-loop turn and partition (libs/owner-client); started by services.ts. */
  owners: OwnerClient;
  /** Users' standings on channels, read in batches (standing-loader.ts). */
  standings: StandingLoader;
  /** Access decisions, reused for ACCESS_CACHE_MS and dropped on announced changes; started by services.ts. */
  accessCache: AccessCache;
  /** Live sockets: registry, channel feeds, kicks, presence, send budget; started by services.ts. */
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
  /** Encrypts and decrypts webhook signing secrets at rest. */
  secretKeyring: SecretKeyring;
  /** Rate limits and socket quotas; started and stopped by services.ts. */
  limits: GatewayLimits;
  /** Dashboard accounts, sessions and sign-in throttling; started and stopped by services.ts. */
  dashboard: Dashboard;
  /** Where browsers reach the realtime edge (the listener's port is recorded when it listens). */
  realtimeEndpoint: PublicEndpoint;
  /** Where clients reach the control plane (the listener's port is recorded when it listens). */
  controlEndpoint: PublicEndpoint;
}

/**
 * The gateway's dependencies from its connections. Building them has no side effects (no
 * query, no subscription), so `scripts/write-openapi.ts` can build the apps offline; whatever
 * must run at start (subscriptions, timers) is started by services.ts.
 */
export function createGatewayDeps(parts: {
  config: GatewayConfig;
  pool: Pool;
  nc: NatsConnection;
  log: Logger;
  metrics: Registry;
  secretKeyring: SecretKeyring;
}): GatewayDeps {
  const lookups = counterOf(parts.metrics, {
    name: 'gateway_credential_cache_lookups_total',
    help: 'Credential lookups served from the cache (hit) or loaded from Postgres (miss)',
    labelNames: ['result'],
  });
  publishSeconds(parts.metrics);
  const credentials = new CredentialStore(
    parts.pool,
    parts.config.CREDENTIAL_CACHE_MS,
    (result) => lookups.inc({ result }),
    KeyUsage.forPool(parts.pool),
  );
  const busSubjects = subjects(parts.config.NATS_PREFIX);
  const requester = new Requester(parts.nc);
  const tenantKeys = new TenantKeys(parts.pool, parts.config.CREDENTIAL_CACHE_MS, {
    allowLoopback: parts.config.WEBHOOK_ALLOW_LOOPBACK,
    minRefetchMs: parts.config.TOKEN_JWKS_REFETCH_MS,
  });
  // built in dependency order: sessions last, from everything else (no cast, no half-built object)
  const base: Omit<GatewayDeps, 'sessions'> = {
    ...parts,
    requester,
    owners: new OwnerClient({
      nc: parts.nc,
      requester,
      subjects: busSubjects,
      partitions: parts.config.PARTITIONS,
      ownerTimeoutMs: parts.config.OWNER_TIMEOUT_MS,
      requests: counterOf(parts.metrics, {
        name: 'gateway_owner_requests_total',
        help: 'Bus requests to channel owners, by route: partition (one partition\'s subject) or node (a bundle of several partitions for one channel-node)',
        labelNames: ['route'],
      }),
    }),
    standings: new StandingLoader(parts.pool),
    subjects: busSubjects,
    credentials,
    revocations: new TokenRevocations(parts.pool, parts.config.CREDENTIAL_CACHE_MS),
    tenantKeys,
    events: new SocketEvents(),
    limits: new GatewayLimits({ ...parts, subjects: busSubjects }),
    dashboard: new Dashboard({
      ...parts,
      // this gateway at once (the answer means the key is refused here), every other one over the bus
      onCredentialsChanged: (environmentId) => {
        credentials.invalidate(environmentId);
        tenantKeys.invalidate(environmentId);
        parts.nc.publish(busSubjects.invalidate, encodeInvalidation(environmentId));
      },
      // their logs tokens stop working and their logs sockets close on every gateway
      onMemberAccessReduced: (organizationId, userId) => revokeLogsTokens(deps, organizationId, userId),
    }),
    realtimeEndpoint: new PublicEndpoint(parts.config.REALTIME_PUBLIC_URL, parts.config.REALTIME_PORT),
    controlEndpoint: new PublicEndpoint(parts.config.CONTROL_PUBLIC_URL, parts.config.CONTROL_PORT),
    sessionMetrics: createSessionMetrics(parts.metrics),
    accessCache: new AccessCache({ ttlMs: parts.config.ACCESS_CACHE_MS, nc: parts.nc, subjects: busSubjects }),
  };
  const deps: GatewayDeps = { ...base, sessions: createSessions(base) };
  return deps;
}
