import { z } from 'zod';
import { Ban, BanBody, ChannelUserParams, UserParams } from '../members.ts';
import { ErrorBody } from '../common.ts';
import { MODERATOR_NOTE, MODERATOR_RULE } from './members.ts';
import { SECRET_KEY, USER_TOKEN, type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };
const tags = ['bans'];
const security = SECRET_KEY;
const putDescription =
  'Secret key. Upsert: a second PUT replaces reason and expiry. `expiresAt` (ISO 8601) must be in the future; ' +
  "without it the ban lasts until deleted. The user's live sockets are closed with 4403 on every gateway. ";

/** A channel ban's operations, the same on both hosts but for the words, the credential and the errors. */
const BAN = { method: 'PUT', url: '/v1/channels/:channelId/bans/:userId' } as const;
const BAN_SCHEMA = { operationId: 'banFromChannel', summary: 'Ban a user from a channel', tags, params: ChannelUserParams, body: BanBody.optional() } as const;
const UNBAN = { method: 'DELETE', url: '/v1/channels/:channelId/bans/:userId' } as const;
const UNBAN_SCHEMA = { operationId: 'unbanFromChannel', summary: 'Lift a channel ban', tags, params: ChannelUserParams } as const;

/**
 * Control plane: bans per channel (`/v1/channels/{channelId}/bans/{userId}`) and environment-wide
 * (`/v1/bans/{userId}`). PUT upserts, DELETE is idempotent, GET answers only a live ban.
 */
export const banOperations = {
  banFromChannel: {
    ...BAN,
    schema: {
      ...BAN_SCHEMA,
      description: putDescription + 'A banned user cannot subscribe, publish, read history or the roster of the channel.' + MODERATOR_NOTE,
      security,
      response: { 200: Ban, ...errors },
    },
  },
  unbanFromChannel: {
    ...UNBAN,
    schema: {
      ...UNBAN_SCHEMA,
      description: 'Secret key. Idempotent: 204 whether or not a ban existed.' + MODERATOR_NOTE,
      security,
      response: { 204: z.null().describe('Lifted'), ...errors },
    },
  },
  getChannelBan: {
    method: 'GET',
    url: '/v1/channels/:channelId/bans/:userId',
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
  banFromEnvironment: {
    method: 'PUT',
    url: '/v1/bans/:userId',
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
  unbanFromEnvironment: {
    method: 'DELETE',
    url: '/v1/bans/:userId',
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
  getEnvironmentBan: {
    method: 'GET',
    url: '/v1/bans/:userId',
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
} as const satisfies Operations;

const realtimeErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Realtime edge: a channel's moderator bans and unbans on the channel (environment-wide bans are the control plane's). */
export const realtimeBanOperations = {
  banFromChannel: {
    ...BAN,
    schema: {
      ...BAN_SCHEMA,
      description:
        MODERATOR_RULE +
        "As the control plane's ban: upsert, `expiresAt` in the future or none; the user's live sockets on the channel " +
        "are closed with 4403 on every gateway. Only channel bans: environment-wide bans are the control plane's.",
      security: USER_TOKEN,
      response: { 200: Ban, ...realtimeErrors },
    },
  },
  unbanFromChannel: {
    ...UNBAN,
    schema: {
      ...UNBAN_SCHEMA,
      description: MODERATOR_RULE + 'Idempotent: 204 whether or not a ban existed.',
      security: USER_TOKEN,
      response: { 204: z.null().describe('Lifted'), ...realtimeErrors },
    },
  },
} as const satisfies Operations;
