import type { z } from 'zod';
import { type BanBody, banOperations, realtimeBanOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { authorizeModeration, ENVIRONMENT_WIDE, keyAuth, putBan, removeBan, requireSecretKey, requireUser, userAuth } from '@rtm/edge';
import { findBan } from '@rtm/channels';

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

  app.route({
    ...banOperations.banFromChannel,
    ...common,
    handler: async (request) => put(keyAuth(request).environmentId, request.params.channelId, request.params.userId, request.body),
  });
  app.route({
    ...banOperations.unbanFromChannel,
    ...common,
    handler: async (request, reply) => {
      await remove(keyAuth(request).environmentId, request.params.channelId, request.params.userId);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...banOperations.getChannelBan,
    ...common,
    handler: async (request) => get(keyAuth(request).environmentId, request.params.channelId, request.params.userId),
  });

  app.route({
    ...banOperations.banFromEnvironment,
    ...common,
    handler: async (request) => put(keyAuth(request).environmentId, ENVIRONMENT, request.params.userId, request.body),
  });
  app.route({
    ...banOperations.unbanFromEnvironment,
    ...common,
    handler: async (request, reply) => {
      await remove(keyAuth(request).environmentId, ENVIRONMENT, request.params.userId);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...banOperations.getEnvironmentBan,
    ...common,
    handler: async (request) => get(keyAuth(request).environmentId, ENVIRONMENT, request.params.userId),
  });
}

/** Realtime edge: a channel's moderator bans and unbans on the channel (environment-wide bans are the control plane's). */
export async function realtimeBanRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...realtimeBanOperations.banFromChannel,
    onRequest: requireUser(deps),
    handler: async (request) => {
      const auth = userAuth(request);
      const { channelId, userId } = request.params;
      await authorizeModeration(deps, auth, channelId, userId);
      return putBan(deps, auth.environmentId, channelId, userId, request.body);
    },
  });
  app.route({
    ...realtimeBanOperations.unbanFromChannel,
    onRequest: requireUser(deps),
    handler: async (request, reply) => {
      const auth = userAuth(request);
      const { channelId, userId } = request.params;
      await authorizeModeration(deps, auth, channelId, userId);
      await removeBan(deps, auth.environmentId, channelId, userId);
      return reply.code(204).send(null);
    },
  });
}
