import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { tokenRoutes } from './tokens.ts';
import { meRoutes } from './me.ts';
import { configRoutes } from './config.ts';
import { webhookRoutes } from './webhooks.ts';
import { controlChannelMessageRoutes, realtimeChannelMessageRoutes } from './channel-messages.ts';
import { channelSocketRoutes } from '../sockets/channel-socket.ts';

type RouteGroup = (app: ZodApp, deps: GatewayDeps) => Promise<void>;

/** Route groups of the control plane (secret key), one encapsulated plugin each. */
export const CONTROL_ROUTES: RouteGroup[] = [tokenRoutes, configRoutes, webhookRoutes, controlChannelMessageRoutes];

/** Route groups of the realtime edge (user JWT), one encapsulated plugin each. */
export const REALTIME_ROUTES: RouteGroup[] = [meRoutes, realtimeChannelMessageRoutes, channelSocketRoutes];
