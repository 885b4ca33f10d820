import { ChannelParams, Occupancy } from '../members.ts';
import { ErrorBody } from '../common.ts';
import { SECRET_KEY, USER_TOKEN, type Operation, type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody };

const DESCRIPTION =
  'Live counts of the channel over every gateway: `connections` (channel sockets and `/v1/connect` subscriptions) and ' +
  '`users` (distinct users among them). A change shows within about 2 s; a gateway that dies stops counting after ' +
  "PRESENCE_TTL_MS (default 15 s). Counts come from presence: where the channel's namespace turns `presence` off the " +
  'request is refused (403 `forbidden`). A user token needs read access to the channel and the `presence` capability ' +
  '(403 `forbidden` or `banned` otherwise); each read counts against `userRosterReadsPerSecond`.';

/** The same counts on both hosts, with that host's credential. */
function occupancyOperations(security: Operation['schema']['security']) {
  return {
    getOccupancy: {
      method: 'GET',
      url: '/v1/channels/:channelId/occupancy',
      schema: {
        operationId: 'getOccupancy',
        summary: "Read a channel's occupancy",
        description: DESCRIPTION,
        tags: ['membership'],
        security,
        params: ChannelParams,
        response: { 200: Occupancy, ...errors },
      },
    },
  } as const satisfies Operations;
}

/** Realtime edge: `GET /v1/channels/{channelId}/occupancy` for a user allowed to read the channel, with the `presence` capability. */
export const realtimeOccupancyOperations = occupancyOperations(USER_TOKEN);
/** Control plane: the same counts for the tenant's backend. */
export const controlOccupancyOperations = occupancyOperations(SECRET_KEY);
