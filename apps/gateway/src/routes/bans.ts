import { z } from 'zod';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { ChannelUserParams, UserParams, BanBody, Ban, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { kickFromChannel, kickFromEnvironment } from '../kicks/kicks.ts';
import { announceAccessChange } from '../access/access-cache.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** channel_id '' is the environment-wide ban (schema: channel ids are never empty). */
const ENVIRONMENT = '';

interface BanRow {
  reason: string | null;
  expires_at: Date | null;
  created_at: Date;
}

function banOf(userId: string, channelId: string, row: BanRow) {
  return {
    userId,
    channelId: channelId === ENVIRONMENT ? null : channelId,
    reason: row.reason,
    expiresAt: row.expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Control plane: bans per channel (`/v1/channels/{channelId}/bans/{userId}`) and environment-wide
 * (`/v1/bans/{userId}`). PUT upserts, DELETE is idempotent, GET answers only a live ban.
 */
export async function banRoutes(app: ZodApp, deps: GatewayDeps) {
  async function put(environmentId: string, channelId: string, userId: string, body: z.infer<typeof BanBody> | undefined) {
    const expiresAt = body?.expiresAt === undefined ? null : new Date(body.expiresAt);
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw new ServiceError('invalid_request', 'body.expiresAt: must be in the future');
    }
    const { rows } = await deps.pool.query<BanRow>(
      `insert into bans (environment_id, channel_id, user_id, reason, expires_at) values ($1, $2, $3, $4, $5)
       on conflict (environment_id, channel_id, user_id)
       do update set reason = excluded.reason, expires_at = excluded.expires_at, created_at = now()
       returning reason, expires_at, created_at`,
      [environmentId, channelId, userId, body?.reason ?? null, expiresAt],
    );
    await announceAccessChange(deps, environmentId);
    const reason = body?.reason ?? 'banned';
    if (channelId === ENVIRONMENT) kickFromEnvironment(deps, environmentId, userId, reason);
    else kickFromChannel(deps, environmentId, channelId, userId, reason, 'banned');
    publishLog(deps.nc, deps.subjects, environmentId, 'info', 'ban.put', {
      channelId: channelId === ENVIRONMENT ? null : channelId,
      userId,
      reason: body?.reason ?? null,
      expiresAt: expiresAt?.toISOString() ?? null,
    });
    return banOf(userId, channelId, rows[0]!);
  }

  async function remove(environmentId: string, channelId: string, userId: string) {
    const { rowCount } = await deps.pool.query(
      'delete from bans where environment_id = $1 and channel_id = $2 and user_id = $3',
      [environmentId, channelId, userId],
    );
    await announceAccessChange(deps, environmentId);
    publishLog(deps.nc, deps.subjects, environmentId, 'info', 'ban.removed', {
      channelId: channelId === ENVIRONMENT ? null : channelId,
      userId,
      wasBanned: (rowCount ?? 0) > 0,
    });
  }

  async function get(environmentId: string, channelId: string, userId: string) {
    const { rows } = await deps.pool.query<BanRow>(
      `select reason, expires_at, created_at from bans
       where environment_id = $1 and channel_id = $2 and user_id = $3 and (expires_at is null or expires_at > now())`,
      [environmentId, channelId, userId],
    );
    if (!rows[0]) throw new ServiceError('not_found', 'no live ban for this user');
    return banOf(userId, channelId, rows[0]);
  }

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
        description: putDescription + 'A banned user cannot subscribe, publish, read history or the roster of the channel.',
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
        description: 'Secret key. Idempotent: 204 whether or not a ban existed.',
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
