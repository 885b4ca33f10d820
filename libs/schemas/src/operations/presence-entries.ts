/**
 * `PUT` and `DELETE /v1/channels/{channelId}/presence` on the realtime edge: the presence entry of
 * a subscription held by one of the user's own connections (an event stream of `GET /v1/events`,
 * which cannot send frames, or a `/v1/connect` socket), named by its `connectionId`. The same
 * entry and rules as the frames `presence-enter`/`-update`/`-leave` (docs/presence.md).
 */
import { z } from 'zod';
import { ErrorBody } from '../common.ts';
import { ChannelParams } from '../members.ts';
import { PRESENCE_DATA_BYTES } from '../connect.ts';
import { USER_TOKEN, type Operations } from './operation.ts';

/** A connection's id as its `connected` frame names it. */
const ConnectionId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^sock_[A-Za-z0-9_-]+$/, "must be a connection id (sock_…), from the connection's `connected` frame")
  .describe("The `connectionId` of the caller's own open event stream or `/v1/connect` connection (its `connected` frame's), subscribed to the channel.");

export const PutPresenceBody = z
  .object({
    connectionId: ConnectionId,
    data: z
      .unknown()
      .optional()
      .describe(
        `Any JSON value, at most ${PRESENCE_DATA_BYTES} bytes serialized (larger: 413 \`payload_too_large\`). Without it: the entry has no data (null).`,
      ),
  })
  .strict();

export const DeletePresenceQuery = z.object({ connectionId: ConnectionId }).strict();

export const PresenceEntry = z
  .object({
    channelId: z.string(),
    userId: z.string(),
    data: z.unknown().describe("The entry's data as set (null when entered without)."),
  })
  .strict();

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody };

const WHICH =
  "User token. `connectionId` names one of the caller's own open connections (the `connectionId` of its `connected` " +
  'frame: an event stream of `GET /v1/events` or a `/v1/connect` socket) on any gateway; the entry belongs to its ' +
  'subscription of the channel, exactly as with the frames, and leaves when that subscription or connection ends. ' +
  'An unknown connection, or one of another user, is 404 `not_found` (a connection no gateway answers for within a ' +
  'couple of seconds counts as unknown). See docs/presence.md, "Presence data".';

/** Realtime edge: presence entries over HTTP. */
export const presenceEntryOperations = {
  putPresence: {
    method: 'PUT',
    url: '/v1/channels/:channelId/presence',
    schema: {
      operationId: 'putPresence',
      summary: "Enter a channel's presence, or update the entry, for one of your connections",
      description:
        `${WHICH} Enters with \`data\`, or replaces the data of the entry already there (as \`presence-enter\`). Needs ` +
        "read access and the `presence` capability, presence on in the channel's namespace (403 `forbidden` otherwise), " +
        'and the connection subscribed to the channel (400 `invalid_request` until its `subscribed`).',
      tags: ['membership'],
      security: USER_TOKEN,
      params: ChannelParams,
      body: PutPresenceBody,
      response: { 200: PresenceEntry, ...errors, 413: ErrorBody },
    },
  },
  deletePresence: {
    method: 'DELETE',
    url: '/v1/channels/:channelId/presence',
    schema: {
      operationId: 'deletePresence',
      summary: "Leave a channel's presence for one of your connections",
      description: `${WHICH} The entry goes (as \`presence-leave\`; idempotent: 204 when there was none). The subscription stays online.`,
      tags: ['membership'],
      security: USER_TOKEN,
      params: ChannelParams,
      querystring: DeletePresenceQuery,
      response: { 204: z.null().describe('Left (or was not entered).'), ...errors },
    },
  },
} as const satisfies Operations;
