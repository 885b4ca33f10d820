import { ChannelParams, ROSTER_PAGE_MAX, Roster, RosterQuery } from '../members.ts';
import { ErrorBody } from '../common.ts';
import { CURRENT_READ, SECRET_KEY, USER_TOKEN, type Operation, type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody };

const ROSTER_DESCRIPTION =
  'User token, or secret key on the control plane. A user must be allowed to read the channel and hold the `presence` ' +
  'capability (403 `forbidden` or ' +
  '`banned` otherwise). `online` is live presence across all gateways: true while the user holds at least one socket on this channel ' +
  '(GET /v1/channels/{id}) on any gateway; a gateway that dies stops counting after PRESENCE_TTL_MS (default 15 s). ' +
  "Where the channel's namespace turns `presence` off, nobody is shown online. " +
  'A `members` channel lists its members. An `open` channel lists its members plus every user currently online ' +
  'in it; those who are not members appear with role `member`. Sorted by userId. Banned users are left out. ' +
  `Paged: \`limit\` (default and maximum ${ROSTER_PAGE_MAX}) entries per page; \`nextCursor\` is null on the last page, ` +
  'otherwise the `cursor` of the next one. A limit out of range or a bad cursor: 400.' +
  CURRENT_READ;

/** The same roster on both hosts, with that host's credential. */
function rosterOperations(security: Operation['schema']['security']) {
  return {
    getRoster: {
      method: 'GET',
      url: '/v1/channels/:channelId/members',
      schema: {
        operationId: 'getRoster',
        summary: "Read a channel's roster",
        description: ROSTER_DESCRIPTION,
        tags: ['membership'],
        security,
        params: ChannelParams,
        querystring: RosterQuery,
        response: { 200: Roster, ...errors },
      },
    },
  } as const satisfies Operations;
}

/** Realtime edge: `GET /v1/channels/{channelId}/members` for a user allowed to read the channel. */
export const realtimeRosterOperations = rosterOperations(USER_TOKEN);
/** Control plane: the same roster for the tenant's backend. */
export const controlRosterOperations = rosterOperations(SECRET_KEY);
