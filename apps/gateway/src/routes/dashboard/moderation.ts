import { recordAudit, type Actor } from '@rtm/accounts';
import { dashboardModerationOperations, dashboardChannelBanOperations, dashboardEnvironmentBanOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { listBans, listMembers } from '@rtm/channels';
import { ENVIRONMENT_WIDE, putBan, putMember, removeBan, removeMember, type Audit } from '@rtm/edge';
import { sessionRoute } from './common.ts';

/** Control plane: channel members and bans (per channel and environment-wide) of an environment. */
export async function dashboardModerationRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);

  const audit =
    (actor: Actor, organizationId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>): Audit =>
    (client) =>
      recordAudit(client, actor, { organizationId, action, targetType, targetId, details });

  app.route({
    ...dashboardModerationOperations.dashboardListChannelMembers,
    ...secured,
    handler: async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      return deps.reads.current('browse', (db) => listMembers(db, environmentId, request.params.channelId, request.query.limit ?? 50, request.query.after));
    },
  });

  app.route({
    ...dashboardModerationOperations.dashboardPutChannelMember,
    ...secured,
    handler: async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const { channelId, userId } = request.params;
      const role = request.body?.role ?? 'member';
      return putMember(
        deps,
        environmentId,
        channelId,
        userId,
        role,
        audit(actor, organizationId, 'channel_member.put', 'channel_member', userId, { environmentId, channelId, role }),
      );
    },
  });

  app.route({
    ...dashboardModerationOperations.dashboardRemoveChannelMember,
    ...secured,
    handler: async (request, reply) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const { channelId, userId } = request.params;
      await removeMember(
        deps,
        environmentId,
        channelId,
        userId,
        audit(actor, organizationId, 'channel_member.removed', 'channel_member', userId, { environmentId, channelId }),
      );
      return reply.code(204).send(null);
    },
  });

  // bans of one channel, and environment-wide ones: the same three routes each
  const banScopes = [
    { operations: dashboardChannelBanOperations, channelOf: (params: object) => (params as { channelId: string }).channelId },
    { operations: dashboardEnvironmentBanOperations, channelOf: (_params: object) => ENVIRONMENT_WIDE },
  ] as const;

  for (const scope of banScopes) {
    const auditDetails = (environmentId: string, channelId: string) => ({
      environmentId,
      channelId: channelId === ENVIRONMENT_WIDE ? null : channelId,
    });

    app.route({
      ...scope.operations.list,
      ...secured,
      handler: async (request) => {
        const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
        return deps.reads.current('browse', (db) =>
          listBans(db, environmentId, scope.channelOf(request.params), request.query.limit ?? 50, request.query.after),
        );
      },
    });

    app.route({
      ...scope.operations.put,
      ...secured,
      handler: async (request) => {
        const actor = dashboardActor(request);
        const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
        const channelId = scope.channelOf(request.params);
        const { userId } = request.params;
        return putBan(
          deps,
          environmentId,
          channelId,
          userId,
          request.body,
          audit(actor, organizationId, 'ban.put', 'ban', userId, {
            ...auditDetails(environmentId, channelId),
            reason: request.body?.reason ?? null,
            expiresAt: request.body?.expiresAt ?? null,
          }),
        );
      },
    });

    app.route({
      ...scope.operations.remove,
      ...secured,
      handler: async (request, reply) => {
        const actor = dashboardActor(request);
        const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
        const channelId = scope.channelOf(request.params);
        const { userId } = request.params;
        await removeBan(
          deps,
          environmentId,
          channelId,
          userId,
          audit(actor, organizationId, 'ban.removed', 'ban', userId, auditDetails(environmentId, channelId)),
        );
        return reply.code(204).send(null);
      },
    });
  }
}
