import { ChannelParams, ChannelSettings, ChannelSettingsBody } from '../members.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `PUT /v1/channels/{channelId}` (per-channel access override). */
export const channelSettingsOperations = {
  setChannelAccess: {
    method: 'PUT',
    url: '/v1/channels/:channelId',
    schema: {
      operationId: 'setChannelAccess',
      summary: "Set a channel's access",
      description:
        'Secret key. `open`: any user token of the environment may read and publish; `members`: only members. ' +
        "Overrides the channel namespace's `access` and the environment's deployed default for this channel; the " +
        'channel is created if it does not exist ' +
        'yet. Switching to `members` closes the live sockets of non-members on every gateway with 4403.',
      tags: ['membership'],
      security: [{ secretKey: [] }],
      params: ChannelParams,
      body: ChannelSettingsBody,
      response: { 200: ChannelSettings, ...errors },
    },
  },
} as const satisfies Operations;
