import type { GatewayConfig } from '@rtm/config';
import type { Pool } from '@rtm/db';
import type { NatsConnection, Subjects } from '@rtm/bus';
import type { CredentialStore } from '@rtm/auth';
import type { Logger } from '@rtm/ops';
import type { Registry } from 'prom-client';
import type { SocketEvents } from './socket-events.ts';

/** What every route group and socket handler of the gateway is built with. */
export interface GatewayDeps {
  config: GatewayConfig;
  pool: Pool;
  nc: NatsConnection;
  subjects: Subjects;
  credentials: CredentialStore;
  log: Logger;
  metrics: Registry;
  /** Socket lifecycle events within this gateway. */
  events: SocketEvents;
}
