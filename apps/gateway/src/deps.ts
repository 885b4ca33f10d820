import type { GatewayConfig } from '@rtm/config';
import type { Pool } from '@rtm/db';
import { LogListeners, stopWatchingLogInterest, watchLogInterest, type NatsConnection } from '@rtm/bus';
import { encodeInvalidation } from '@rtm/limits';
import type { SecretKeyring } from '@rtm/webhooks';
import type { Logger } from '@rtm/ops';
import type { Registry } from 'prom-client';
import { createEdgeDeps, type EdgeDeps } from '@rtm/edge';
import type { ProcessUsage } from '@rtm/usage';
import { Dashboard } from './dashboard/dashboard.ts';
import { PublicEndpoint } from './http/public-endpoint.ts';
import { revokeLogsTokens, revokeLogsTokensOfEndedSessions } from './auth/logs-access.ts';

/**
 * What every route group and socket handler of the gateway is built with: the edge's parts
 * (libs/edge) and what only the gateway has, its dashboard, its secret keyring and its listeners' addresses.
 */
export interface GatewayDeps extends EdgeDeps {
  /** Encrypts and decrypts webhook signing secrets at rest. */
  secretKeyring: SecretKeyring;
  /** Dashboard accounts, sessions and sign-in throttling; started and stopped by services.ts. */
  dashboard: Dashboard;
  /** Where browsers reach the realtime edge (the listener's port is recorded when it listens). */
  realtimeEndpoint: PublicEndpoint;
  /** Where clients reach the control plane (the listener's port is recorded when it listens). */
  controlEndpoint: PublicEndpoint;
  /** The environments this gateway holds logs sockets of, announced to the publishers (started with logInterest). */
  logListeners: LogListeners;
  /**
   * Started by services.ts: announces logListeners, and hears the other gateways' announcements
   * so that this gateway's own live-log events go only where someone listens (libs/bus log-interest.ts).
   */
  logInterest: { start(): void; stop(): void };
  /** Writes the usage meter (`usage`) every USAGE_FLUSH_MS; started first and stopped last by services.ts. */
  usageWriter: { start(): void; stop(): Promise<void> };
}

/**
 * The gateway's dependencies from its connections. Building them has no side effects (no
 * query, no subscription), so `scripts/write-openapi.ts` can build the apps offline; whatever
 * must run at start (subscriptions, timers) is started by services.ts.
 */
export function createGatewayDeps(parts: {
  config: GatewayConfig;
  pool: Pool;
  /** DATABASE_READ_URL's pool, when set. */
  readPool?: Pool | undefined;
  nc: NatsConnection;
  log: Logger;
  metrics: Registry;
  secretKeyring: SecretKeyring;
  /** The process's usage meter and its writer (libs/usage); unset: nothing counted. */
  usage?: ProcessUsage;
}): GatewayDeps {
  const { usage, ...rest } = parts;
  const edge = createEdgeDeps({ ...rest, ...(usage && { usage: usage.usage }) });
  const { credentials, tenantKeys, nc, subjects } = edge;
  const deps: GatewayDeps = {
    ...edge,
    secretKeyring: parts.secretKeyring,
    dashboard: new Dashboard({
      ...parts,
      // this gateway at once (the answer means the key is refused here), every other one over the bus
      onCredentialsChanged: (environmentId) => {
        credentials.invalidate(environmentId);
        tenantKeys.invalidate(environmentId);
        nc.publish(subjects.invalidate, encodeInvalidation(environmentId));
      },
      // their logs tokens stop working and their logs sockets close on every gateway
      onMemberAccessReduced: (organizationId, userId) => revokeLogsTokens(deps, organizationId, userId),
      // the logs tokens those sessions minted stop working and their logs sockets close on every gateway
      onSessionsEnded: () => revokeLogsTokensOfEndedSessions(deps),
    }),
    realtimeEndpoint: new PublicEndpoint(parts.config.REALTIME_PUBLIC_URL, parts.config.REALTIME_PORT),
    controlEndpoint: new PublicEndpoint(parts.config.CONTROL_PUBLIC_URL, parts.config.CONTROL_PORT),
    logListeners: new LogListeners(nc, subjects),
    usageWriter: usage ?? { start() {}, async stop() {} },
    logInterest: {
      start: () => {
        deps.logListeners.start();
        watchLogInterest(nc, subjects);
      },
      stop: () => {
        stopWatchingLogInterest(nc);
        deps.logListeners.stop();
      },
    },
  };
  return deps;
}
