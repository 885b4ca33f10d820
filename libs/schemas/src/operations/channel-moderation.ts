import { z } from 'zod';
import { Ban, BanBody, ChannelUserParams } from '../members.ts';
import { ErrorBody } from '../common.ts';
import { USER_TOKEN, type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };
const security = USER_TOKEN;

const MODERATOR_RULE =
  'User token of a `moderator` of the channel (with the `publish` capability on it); anyone else is refused with 403 ' +
  '`forbidden`. A moderator may not act on another moderator (or themselves): that is the control plane\'s to do. ';

/** How the realtime edge's forms of these routes are described in the merged OpenAPI document. */
export const MODERATOR_NOTE =
  ' Realtime edge: a user token of a `moderator` of the channel (with the `publish` capability on it) may do the same ' +
  'for this channel; anyone else is 403 `forbidden`, and a moderator may not act on another moderator or themselves.';

/**
 * Realtime edge: what a channel's moderators may do besides retracting any message (that is
 * DELETE /v1/channels/{id}/messages/{messageId}): remove a member, ban and unban on the channel.
 */
export const channelModerationOperations = {
  removeMember: {
    method: 'DELETE',
    url: '/v1/channels/:channelId/members/:userId',
    schema: {
      operationId: 'removeMember',
      summary: 'Remove a channel member',
      description:
        MODERATOR_RULE +
        'Idempotent: 204 whether or not the user was a member. Their live sockets and subscriptions on this channel are ' +
        'closed with 4403 / ended with `unsubscribed {code: "forbidden"}` on every gateway.',
      tags: ['membership'],
      security,
      params: ChannelUserParams,
      response: { 204: z.null().describe('Removed'), ...errors },
    },
  },
  banFromChannel: {
    method: 'PUT',
    url: '/v1/channels/:channelId/bans/:userId',
    schema: {
      operationId: 'banFromChannel',
      summary: 'Ban a user from a channel',
      description:
        MODERATOR_RULE +
        'As the control plane\'s ban: upsert, `expiresAt` in the future or none; the user\'s live sockets on the channel ' +
        'are closed with 4403 on every gateway. Only channel bans: environment-wide bans are the control plane\'s.',
      tags: ['bans'],
      security,
      params: ChannelUserParams,
      body: BanBody.optional(),
      response: { 200: Ban, ...errors },
    },
  },
  unbanFromChannel: {
    method: 'DELETE',
    url: '/v1/channels/:channelId/bans/:userId',
    schema: {
      operationId: 'unbanFromChannel',
      summary: 'Lift a channel ban',
      description: MODERATOR_RULE + 'Idempotent: 204 whether or not a ban existed.',
      tags: ['bans'],
      security,
      params: ChannelUserParams,
      response: { 204: z.null().describe('Lifted'), ...errors },
    },
  },
} as const satisfies Operations;
