import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { anonymousTokenRoutes, tokenRoutes } from './tokens.ts';
import { erasureRoutes } from './erasure.ts';
import { tokenKeyRoutes } from './token-keys.ts';
import { meRoutes } from './me.ts';
import { configRoutes } from './config.ts';
import { dashboardQuotaRoutes, quotaRoutes } from './quota.ts';
import { webhookRoutes } from './webhooks.ts';
import { webhookEndpointRoutes } from './webhook-endpoints.ts';
import { controlChannelMessageRoutes, realtimeChannelMessageRoutes } from './channel-messages.ts';
import { controlChangeRoutes, realtimeChangeRoutes } from './message-changes.ts';
import { controlBatchRoutes, realtimeBatchRoutes } from './batch-messages.ts';
import { channelSocketRoutes, connectSocketRoutes, eventsStreamRoutes, inboxSocket } from '@rtm/edge';
import { memberRoutes, realtimeMemberRoutes } from './members.ts';
import { banRoutes, realtimeBanRoutes } from './bans.ts';
import { channelSettingsRoutes } from './channel-settings.ts';
import { rosterRoutes, controlRosterRoutes } from './roster.ts';
import { occupancyRoutes, controlOccupancyRoutes } from './occupancy.ts';
import { notificationRoutes } from './notifications.ts';
import { inboxRoutes } from './inbox.ts';
import { logsTokenRoutes } from './logs-token.ts';
import { statsRoutes } from './stats.ts';
import { logsSocket } from '../sockets/logs-socket.ts';
import { presenceEntryRoutes } from './presence-entries.ts';
import { sdkBundleRoutes } from '../sdk/sdk-bundle.ts';
import { DASHBOARD_ROUTES } from './dashboard/index.ts';
import { dashboardUiRoutes } from '../dashboard-ui/dashboard-ui.ts';

type RouteGroup = (app: ZodApp, deps: GatewayDeps) => Promise<void>;

/** Route groups of the control plane (secret key; the dashboard's: session cookie; its web UI: static files), one encapsulated plugin each. */
export const CONTROL_ROUTES: RouteGroup[] = [
  tokenRoutes,
  anonymousTokenRoutes,
  erasureRoutes,
  tokenKeyRoutes,
  configRoutes,
  quotaRoutes,
  dashboardQuotaRoutes,
  webhookRoutes,
  webhookEndpointRoutes,
  controlChannelMessageRoutes,
  controlChangeRoutes,
  controlBatchRoutes,
  memberRoutes,
  banRoutes,
  channelSettingsRoutes,
  controlRosterRoutes,
  controlOccupancyRoutes,
  notificationRoutes,
  logsTokenRoutes,
  statsRoutes,
  ...DASHBOARD_ROUTES,
  dashboardUiRoutes,
];

/** Route groups of the realtime edge (user JWT; the anonymous mint: a publishable or secret key), one encapsulated plugin each. */
export const REALTIME_ROUTES: RouteGroup[] = [
  anonymousTokenRoutes,
  meRoutes,
  realtimeChannelMessageRoutes,
  realtimeChangeRoutes,
  realtimeBatchRoutes,
  channelSocketRoutes,
  rosterRoutes,
  occupancyRoutes,
  realtimeMemberRoutes,
  realtimeBanRoutes,
  inboxRoutes,
  inboxSocket,
  logsSocket,
  connectSocketRoutes,
  eventsStreamRoutes,
  presenceEntryRoutes,
  sdkBundleRoutes,
];
