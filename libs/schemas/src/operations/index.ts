import type { Operation } from './operation.ts';
import { banOperations, realtimeBanOperations } from './bans.ts';
import { memberOperations, realtimeMemberOperations } from './members.ts';
import { channelSettingsOperations } from './channel-settings.ts';
import { realtimeTokenOperations, tokenOperations } from './tokens.ts';
import { tokenKeyOperations } from './token-keys.ts';
import { erasureOperations } from './erasure.ts';
import { meOperations } from './me.ts';
import { inboxOperations } from './inbox.ts';
import { notificationOperations } from './notifications.ts';
import { logsTokenOperations } from './logs-token.ts';
import { configOperations } from './config.ts';
import { webhookOperations } from './webhooks.ts';
import { webhookEndpointOperations } from './webhook-endpoints.ts';
import { controlMessageOperations, realtimeMessageOperations } from './channel-messages.ts';
import { controlChangeOperations, realtimeChangeOperations } from './message-changes.ts';
import { controlBatchOperations, realtimeBatchOperations } from './batch-messages.ts';
import { controlRosterOperations, realtimeRosterOperations } from './roster.ts';
import { controlOccupancyOperations, realtimeOccupancyOperations } from './occupancy.ts';
import { eventsOperations } from './events.ts';
import { presenceEntryOperations } from './presence-entries.ts';
import { dashboardSessionOperations } from './dashboard/session.ts';
import { dashboardOrganizationOperations } from './dashboard/organizations.ts';
import { dashboardInvitationOperations } from './dashboard/invitations.ts';
import { dashboardEmailCodeOperations } from './dashboard/email-codes.ts';
import { dashboardProjectOperations } from './dashboard/projects.ts';
import { dashboardKeyOperations } from './dashboard/keys.ts';
import { dashboardMessageOperations } from './dashboard/messages.ts';
import { dashboardModerationOperations, dashboardChannelBanOperations, dashboardEnvironmentBanOperations } from './dashboard/moderation.ts';
import { dashboardWebhookOperations } from './dashboard/webhooks.ts';
import { dashboardWebhookEndpointOperations } from './dashboard/webhook-endpoints.ts';
import { dashboardQuotaOperations, quotaOperations } from './quota.ts';
import { statsOperations } from './stats.ts';
import { dashboardStatsOperations } from './dashboard/stats.ts';

export type { Operation, Operations } from './operation.ts';
export * from './bans.ts';
export * from './members.ts';
export * from './channel-settings.ts';
export * from './tokens.ts';
export * from './token-keys.ts';
export * from './erasure.ts';
export * from './me.ts';
export * from './inbox.ts';
export * from './notifications.ts';
export * from './logs-token.ts';
export * from './config.ts';
export * from './webhooks.ts';
export * from './webhook-endpoints.ts';
export * from './channel-messages.ts';
export * from './message-changes.ts';
export * from './batch-messages.ts';
export * from './roster.ts';
export * from './occupancy.ts';
export * from './events.ts';
export * from './presence-entries.ts';
export * from './dashboard/session.ts';
export * from './dashboard/organizations.ts';
export * from './dashboard/invitations.ts';
export * from './dashboard/email-codes.ts';
export * from './dashboard/projects.ts';
export * from './dashboard/keys.ts';
export * from './dashboard/messages.ts';
export * from './dashboard/moderation.ts';
export * from './dashboard/webhooks.ts';
export * from './dashboard/webhook-endpoints.ts';
export * from './quota.ts';
export * from './stats.ts';
export * from './dashboard/stats.ts';

/**
 * The catalogue: every operation each listener serves, by host. An operation served on both
 * hosts (publish, retract, history, roster, occupancy, the anonymous mint) is listed on each with that host's
 * credentials (and body); the OpenAPI document merges the two under one operationId.
 * test/unit/gateway.operations-contract.test.ts holds the gateway's routes to it.
 */
export const OPERATIONS: { readonly control: readonly Operation[]; readonly realtime: readonly Operation[] } = {
  control: [
    tokenOperations,
    tokenKeyOperations,
    erasureOperations,
    configOperations,
    quotaOperations,
    webhookOperations,
    webhookEndpointOperations,
    controlMessageOperations,
    controlChangeOperations,
    controlBatchOperations,
    memberOperations,
    banOperations,
    channelSettingsOperations,
    controlRosterOperations,
    controlOccupancyOperations,
    notificationOperations,
    logsTokenOperations,
    statsOperations,
    dashboardSessionOperations,
    dashboardOrganizationOperations,
    dashboardInvitationOperations,
    dashboardEmailCodeOperations,
    dashboardProjectOperations,
    dashboardKeyOperations,
    dashboardMessageOperations,
    dashboardModerationOperations,
    dashboardChannelBanOperations,
    dashboardEnvironmentBanOperations,
    dashboardWebhookOperations,
    dashboardWebhookEndpointOperations,
    dashboardQuotaOperations,
    dashboardStatsOperations,
  ].flatMap((group) => Object.values(group)),
  realtime: [
    realtimeTokenOperations,
    meOperations,
    realtimeMessageOperations,
    realtimeChangeOperations,
    realtimeBatchOperations,
    realtimeRosterOperations,
    realtimeOccupancyOperations,
    realtimeMemberOperations,
    realtimeBanOperations,
    inboxOperations,
    eventsOperations,
    presenceEntryOperations,
  ].flatMap((group) => Object.values(group)),
};
