import { z } from 'zod';
import { ChannelUserParams, PutMemberBody, Membership, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { putMember, removeMember } from '../moderation/moderation.ts';
import { MODERATOR_NOTE } from './channel-moderation.ts';

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
      return putMember(deps, environmentId, request.params.channelId, request.params.userId, request.body?.role ?? 'member');
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
          'channel, on every gateway, are closed with 4403 (even in an `open` channel, where they may reconnect).' + MODERATOR_NOTE,
        tags: ['membership'],
        security: [{ secretKey: [] }],
        params: ChannelUserParams,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId } = keyAuth(request);
      await removeMember(deps, environmentId, request.params.channelId, request.params.userId);
      return reply.code(204).send(null);
    },
  );
}
