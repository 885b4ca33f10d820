import { z } from 'zod';
import { recordAudit, type Actor } from '@rtm/accounts';
import { Ban, BanBody, Membership, PutMemberBody } from '@rtm/schemas';
import {
  DashboardBanPage,
  DashboardChannelMemberPage,
  DashboardChannelParams,
  DashboardChannelUserParams,
  DashboardEnvParams,
  DashboardEnvUserParams,
  DashboardUserPageQuery,
} from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { listBans, listMembers } from '@rtm/channels';
import { ENVIRONMENT_WIDE, putBan, putMember, removeBan, removeMember, type Audit } from '../../moderation/moderation.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, csrfHeaders, readErrors, sessionRoute, writeErrors } from './common.ts';

const MANAGE = ' Admins and owners (403 for viewers).';
const KICKS = ' The user\'s live sockets concerned are closed with 4403 on every gateway.';

/** Control plane: channel members and bans (per channel and environment-wide) of an environment. */
export async function dashboardModerationRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);
  const common = { tags: TAGS, security: SESSION_SECURITY };

  const audit =
    (actor: Actor, organizationId: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>): Audit =>
    (client) => recordAudit(client, actor, { organizationId, action, targetType, targetId, details });

  app.get(
    '/v1/dashboard/environments/:envId/channels/:channelId/members',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListChannelMembers',
        summary: 'The members of a channel',
        description: 'By user id; `limit` default 50, maximum 500; `after` is the previous page\'s `nextAfter`. Any member.',
        params: DashboardChannelParams,
        querystring: DashboardUserPageQuery,
        response: { 200: DashboardChannelMemberPage, ...readErrors },
      },
    },
    async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      return listMembers(deps.pool, environmentId, request.params.channelId, request.query.limit ?? 50, request.query.after);
    },
  );

  app.put(
    '/v1/dashboard/environments/:envId/channels/:channelId/members/:userId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardPutChannelMember',
        summary: 'Add a channel member or change their role',
        description:
          'As PUT /v1/channels/{channelId}/members/{userId} with the secret key: an idempotent upsert, the role ' +
          'defaults to `member`; the channel need not exist yet.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardChannelUserParams,
        body: PutMemberBody.optional(),
        response: { 200: Membership, ...writeErrors },
      },
    },
    async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const { channelId, userId } = request.params;
      const role = request.body?.role ?? 'member';
      return putMember(deps, environmentId, channelId, userId, role,
        audit(actor, organizationId, 'channel_member.put', 'channel_member', userId, { environmentId, channelId, role }));
    },
  );

  app.delete(
    '/v1/dashboard/environments/:envId/channels/:channelId/members/:userId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRemoveChannelMember',
        summary: 'Remove a channel member',
        description: '204 whether or not the user was a member.' + KICKS + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardChannelUserParams,
        response: { 204: z.null().describe('Removed'), ...writeErrors },
      },
    },
    async (request, reply) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const { channelId, userId } = request.params;
      await removeMember(deps, environmentId, channelId, userId,
        audit(actor, organizationId, 'channel_member.removed', 'channel_member', userId, { environmentId, channelId }));
      return reply.code(204).send(null);
    },
  );

  // bans of one channel, and environment-wide ones: the same three routes each
  const banScopes = [
    {
      path: '/v1/dashboard/environments/:envId/channels/:channelId/bans',
      what: 'channel',
      name: 'Channel',
      listParams: DashboardChannelParams,
      userParams: DashboardChannelUserParams,
      channelOf: (params: object) => (params as { channelId: string }).channelId,
    },
    {
      path: '/v1/dashboard/environments/:envId/bans',
      what: 'environment-wide',
      name: 'Environment',
      listParams: DashboardEnvParams,
      userParams: DashboardEnvUserParams,
      channelOf: (_params: object) => ENVIRONMENT_WIDE,
    },
  ] as const;

  for (const scope of banScopes) {
    const auditDetails = (environmentId: string, channelId: string) => ({
      environmentId,
      channelId: channelId === ENVIRONMENT_WIDE ? null : channelId,
    });

    app.get(
      scope.path,
      {
        ...secured,
        schema: {
          ...common,
          operationId: `dashboardList${scope.name}Bans`,
          summary: `The live ${scope.what} bans`,
          description: 'Unexpired bans by user id; `limit` default 50, maximum 500; `after` is the previous page\'s `nextAfter`. Any member.',
          params: scope.listParams,
          querystring: DashboardUserPageQuery,
          response: { 200: DashboardBanPage, ...readErrors },
        },
      },
      async (request) => {
        const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
        return listBans(deps.pool, environmentId, scope.channelOf(request.params), request.query.limit ?? 50, request.query.after);
      },
    );

    app.put(
      `${scope.path}/:userId`,
      {
        ...secured,
        schema: {
          ...common,
          operationId: `dashboardPut${scope.name}Ban`,
          summary: `Ban a user (${scope.what})`,
          description:
            'An upsert: a second PUT replaces reason and expiry. `expiresAt` must be in the future; without it the ban ' +
            'lasts until lifted.' + KICKS + MANAGE + CSRF_NOTE,
          headers: csrfHeaders,
          params: scope.userParams,
          body: BanBody.optional(),
          response: { 200: Ban, ...writeErrors },
        },
      },
      async (request) => {
        const actor = dashboardActor(request);
        const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
        const channelId = scope.channelOf(request.params);
        const { userId } = request.params;
        return putBan(deps, environmentId, channelId, userId, request.body,
          audit(actor, organizationId, 'ban.put', 'ban', userId, {
            ...auditDetails(environmentId, channelId),
            reason: request.body?.reason ?? null,
            expiresAt: request.body?.expiresAt ?? null,
          }));
      },
    );

    app.delete(
      `${scope.path}/:userId`,
      {
        ...secured,
        schema: {
          ...common,
          operationId: `dashboardRemove${scope.name}Ban`,
          summary: `Lift a ${scope.what} ban`,
          description: '204 whether or not a ban existed.' + MANAGE + CSRF_NOTE,
          headers: csrfHeaders,
          params: scope.userParams,
          response: { 204: z.null().describe('Lifted'), ...writeErrors },
        },
      },
      async (request, reply) => {
        const actor = dashboardActor(request);
        const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
        const channelId = scope.channelOf(request.params);
        const { userId } = request.params;
        await removeBan(deps, environmentId, channelId, userId,
          audit(actor, organizationId, 'ban.removed', 'ban', userId, auditDetails(environmentId, channelId)));
        return reply.code(204).send(null);
      },
    );
  }
}
