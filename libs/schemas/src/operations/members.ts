import { z } from 'zod';
import { ChannelUserParams, Membership, PutMemberBody } from '../members.ts';
import { ErrorBody } from '../common.ts';
import { USER_TOKEN, type Operations } from './operation.ts';

/** Who may use the realtime edge's forms of the moderation routes (members here, bans in bans.ts). */
export const MODERATOR_RULE =
  'User token of a `moderator` of the channel (with the `publish` capability on it); anyone else is refused with 403 ' +
  "`forbidden`. A moderator may not act on another moderator (or themselves): that is the control plane's to do. ";

/** How the realtime edge's forms of these routes are described in the merged OpenAPI document. */
export const MODERATOR_NOTE =
  ' Realtime edge: a user token of a `moderator` of the channel (with the `publish` capability on it) may do the same ' +
  'for this channel; anyone else is 403 `forbidden`, and a moderator may not act on another moderator or themselves.';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Removing a member, the same on both hosts but for the words and the credential. */
const REMOVE_MEMBER = { method: 'DELETE', url: '/v1/channels/:channelId/members/:userId' } as const;
const REMOVE_MEMBER_SCHEMA = {
  operationId: 'removeMember',
  summary: 'Remove a channel member',
  tags: ['membership'],
  params: ChannelUserParams,
  response: { 204: z.null().describe('Removed'), ...errors },
} as const;

/** Control plane: `PUT|DELETE /v1/channels/{channelId}/members/{userId}`. */
export const memberOperations = {
  putMember: {
    method: 'PUT',
    url: '/v1/channels/:channelId/members/:userId',
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
  removeMember: {
    ...REMOVE_MEMBER,
    schema: {
      ...REMOVE_MEMBER_SCHEMA,
      description:
        "Secret key. Idempotent: 204 whether or not the user was a member. The user's live sockets on this " +
        'channel, on every gateway, are closed with 4403 (even in an `open` channel, where they may reconnect).' +
        MODERATOR_NOTE,
      security: [{ secretKey: [] }],
    },
  },
} as const satisfies Operations;

/** Realtime edge: a channel's moderator removes a member (bans: bans.ts; retracting: channel-messages.ts). */
export const realtimeMemberOperations = {
  removeMember: {
    ...REMOVE_MEMBER,
    schema: {
      ...REMOVE_MEMBER_SCHEMA,
      description:
        MODERATOR_RULE +
        'Idempotent: 204 whether or not the user was a member. Their live sockets and subscriptions on this channel are ' +
        'closed with 4403 / ended with `unsubscribed {code: "forbidden"}` on every gateway.',
      security: USER_TOKEN,
    },
  },
} as const satisfies Operations;
