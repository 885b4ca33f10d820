import { dashboardSessionRoutes } from './session.ts';
import { dashboardOrganizationRoutes } from './organizations.ts';
import { dashboardInvitationRoutes } from './invitations.ts';
import { dashboardEmailCodeRoutes } from './email-codes.ts';
import { dashboardProjectRoutes } from './projects.ts';
import { dashboardKeyRoutes } from './keys.ts';
import { dashboardMessageRoutes } from './messages.ts';
import { dashboardModerationRoutes } from './moderation.ts';
import { dashboardWebhookRoutes } from './webhooks.ts';
import { dashboardWebhookEndpointRoutes } from './webhook-endpoints.ts';
import { dashboardStatsRoutes } from './stats.ts';

/** Route groups of the dashboard (control plane, session cookie), one encapsulated plugin each. */
export const DASHBOARD_ROUTES = [
  dashboardSessionRoutes,
  dashboardOrganizationRoutes,
  dashboardInvitationRoutes,
  dashboardEmailCodeRoutes,
  dashboardProjectRoutes,
  dashboardKeyRoutes,
  dashboardMessageRoutes,
  dashboardModerationRoutes,
  dashboardWebhookRoutes,
  dashboardWebhookEndpointRoutes,
  dashboardStatsRoutes,
];
