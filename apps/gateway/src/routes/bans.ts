import { z } from 'zod';
import { ChannelUserParams, UserParams, BanBody, Ban, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { findBan } from '@rtm/channels';
import { ENVIRONMENT_WIDE, putBan, removeBan } from '../moderation/moderation.ts';
import { MODERATOR_NOTE } from './channel-moderation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

const ENVIRONMENT = ENVIRONMENT_WIDE;

/**
 * Control plane: bans per channel (`/v1/channels/{channelId}/bans/{userId}`) and environment-wide
 * (`/v1/bans/{userId}`). PUT upserts, DELETE is idempotent, GET answers only a live ban.
 */
export async function banRoutes(app: ZodApp, deps: GatewayDeps) {
  const put = (environmentId: string, channelId: string, userId: string, body: z.infer<typeof BanBody> | undefined) =>
    putBan(deps, environmentId, channelId, userId, body);
  const remove = (environmentId: string, channelId: string, userId: string) => removeBan(deps, environmentId, channelId, userId);
  const get = (environmentId: string, channelId: string, userId: string) => findBan(deps.pool, environmentId, channelId, userId);

  const common = { onRequest: requireSecretKey(deps) };
  const tags = ['bans'];
  const security = [{ secretKey: [] }];
  const putDescription =
    'Secret key. Upsert: a second PUT replaces reason and expiry. `expiresAt` (ISO 8601) must be in the future; ' +
    'without it the ban lasts until deleted. The user\'s live sockets are closed with 4403 on every gateway. ';

  app.put(
    '/v1/channels/:channelId/bans/:userId',
    {
      ...common,
      schema: {
        operationId: 'banFromChannel',
        summary: 'Ban a user from a channel',
        description: putDescription + 'A banned user cannot subscribe, publish, read history or the roster of the channel.' + MODERATOR_NOTE,
        tags,
        security,
        params: ChannelUserParams,
        body: BanBody.optional(),
        response: { 200: Ban, ...errors },
      },
    },
    async (request) => put(keyAuth(request).environmentId, request.params.channelId, request.params.userId, request.body),
  );
  app.delete(
    '/v1/channels/:channelId/bans/:userId',
    {
      ...common,
      schema: {
        operationId: 'unbanFromChannel',
        summary: 'Lift a channel ban',
        description: 'Secret key. Idempotent: 204 whether or not a ban existed.' + MODERATOR_NOTE,
        tags,
        security,
        params: ChannelUserParams,
        response: { 204: z.null().describe('Lifted'), ...errors },
      },
    },
    async (request, reply) => {
      await remove(keyAuth(request).environmentId, request.params.channelId, request.params.userId);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/v1/channels/:channelId/bans/:userId',
    {
      ...common,
      schema: {
        operationId: 'getChannelBan',
        summary: 'Read a channel ban',
        description: 'Secret key. 404 `not_found` when the user has no live (unexpired) ban on the channel.',
        tags,
        security,
        params: ChannelUserParams,
        response: { 200: Ban, ...errors },
      },
    },
    async (request) => get(keyAuth(request).environmentId, request.params.channelId, request.params.userId),
  );

  app.put(
    '/v1/bans/:userId',
    {
      ...common,
      schema: {
        operationId: 'banFromEnvironment',
        summary: 'Ban a user from the environment',
        description:
          putDescription +
          'An environment-wide ban refuses new tokens (403 `banned` on POST /v1/tokens), every channel and the inbox; ' +
          'tokens minted before it are refused wherever they are used.',
        tags,
        security,
        params: UserParams,
        body: BanBody.optional(),
        response: { 200: Ban, ...errors },
      },
    },
    async (request) => put(keyAuth(request).environmentId, ENVIRONMENT, request.params.userId, request.body),
  );
  app.delete(
    '/v1/bans/:userId',
    {
      ...common,
      schema: {
        operationId: 'unbanFromEnvironment',
        summary: 'Lift an environment-wide ban',
        description: 'Secret key. Idempotent: 204 whether or not a ban existed.',
        tags,
        security,
        params: UserParams,
        response: { 204: z.null().describe('Lifted'), ...errors },
      },
    },
    async (request, reply) => {
      await remove(keyAuth(request).environmentId, ENVIRONMENT, request.params.userId);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/v1/bans/:userId',
    {
      ...common,
      schema: {
        operationId: 'getEnvironmentBan',
        summary: 'Read an environment-wide ban',
        description: 'Secret key. 404 `not_found` when the user has no live (unexpired) environment-wide ban.',
        tags,
        security,
        params: UserParams,
        response: { 200: Ban, ...errors },
      },
    },
    async (request) => get(keyAuth(request).environmentId, ENVIRONMENT, request.params.userId),
  );
}
