import { z } from 'zod';
import { publishLog } from '@rtm/bus';
import { ChannelUserParams, PutMemberBody, Membership, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { kickFromChannel } from '../kicks/kicks.ts';
import { announceAccessChange } from '../access/access-cache.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `PUT|DELETE /v1/channels/{channelId}/members/{userId}`. */
export async function memberRoutes(app: ZodApp, deps: GatewayDeps) {
  app.put(
    '/v1/channels/:channelId/members/:userId',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'putMember',
        summary: 'Add a channel member or change their role',
        description:
          'Secret key. Idempotent upsert: the role defaults to `member` and a PUT replaces it. The channel need not ' +
          'exist yet and the user need not have connected before (user ids are not registered anywhere). ' +
          'Membership matters for `members` channels; bans still win over it.',
        tags: ['membership'],
        security: [{ secretKey: [] }],
        params: ChannelUserParams,
        body: PutMemberBody.optional(),
        response: { 200: Membership, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const { channelId, userId } = request.params;
      const role = request.body?.role ?? 'member';
      const { rows } = await deps.pool.query<{ role: 'member' | 'moderator'; created_at: Date; updated_at: Date }>(
        `insert into memberships (environment_id, channel_id, user_id, role) values ($1, $2, $3, $4)
         on conflict (environment_id, channel_id, user_id) do update set role = excluded.role, updated_at = now()
         returning role, created_at, updated_at`,
        [environmentId, channelId, userId, role],
      );
      const row = rows[0]!;
      await announceAccessChange(deps, environmentId);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'member.put', { channelId, userId, role });
      return {
        channelId,
        userId,
        role: row.role,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      };
    },
  );

  app.delete(
    '/v1/channels/:channelId/members/:userId',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'removeMember',
        summary: 'Remove a channel member',
        description:
          'Secret key. Idempotent: 204 whether or not the user was a member. The user\'s live sockets on this ' +
          'channel, on every gateway, are closed with 4403 (even in an `open` channel, where they may reconnect).',
        tags: ['membership'],
        security: [{ secretKey: [] }],
        params: ChannelUserParams,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const { channelId, userId } = request.params;
      const { rowCount } = await deps.pool.query(
        'delete from memberships where environment_id = $1 and channel_id = $2 and user_id = $3',
        [environmentId, channelId, userId],
      );
      await announceAccessChange(deps, environmentId);
      kickFromChannel(deps, environmentId, channelId, userId, 'removed from the channel', 'forbidden');
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'member.removed', {
        channelId,
        userId,
        wasMember: (rowCount ?? 0) > 0,
      });
      return reply.code(204).send(null);
    },
  );
}
