import {
  DashboardChannelList,
  DashboardChannelMessageParams,
  DashboardChannelParams,
  DashboardChannelsQuery,
  DashboardEnvParams,
  DashboardMessage,
  DashboardMessagePage,
  DashboardMessagesQuery,
  DashboardRetractBody,
} from '../../dashboard.ts';
import { CURRENT_READ, type Operations } from '../operation.ts';
import { CSRF_NOTE, MANAGE, common, csrfHeaders, readErrors, writeErrors } from './common.ts';

/** Control plane: the message browser of an environment (channels, history pages, one message, retraction). */
export const dashboardMessageOperations = {
  dashboardListChannels: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/channels',
    schema: {
      ...common,
      operationId: 'dashboardListChannels',
      summary: 'The channels of an environment',
      description:
        "The environment's channels as stored by their owners, by channel id, each with its message " +
        'count (retracted ones included) and last activity (the newest persisted message). `limit` default 50, ' +
        "maximum 500; `cursor` is the previous page's `nextCursor`. Any member." +
        CURRENT_READ,
      params: DashboardEnvParams,
      querystring: DashboardChannelsQuery,
      response: { 200: DashboardChannelList, ...readErrors },
    },
  },
  dashboardListMessages: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/channels/:channelId/messages',
    schema: {
      ...common,
      operationId: 'dashboardListMessages',
      summary: "A page of a channel's messages",
      description:
        'Persisted messages, newest first, tombstones of retracted ones included, and messages addressed with `to` ' +
        '(the control plane sees them all). Filters: `sender` (sender id), `type`, `since` (inclusive) and `until` ' +
        "(exclusive) on the publish time. `limit` default 50, maximum 500; `before` is the previous page's " +
        '`nextBefore`. A channel without messages (or unknown) answers an empty page. Any member.' +
        CURRENT_READ,
      params: DashboardChannelParams,
      querystring: DashboardMessagesQuery,
      response: { 200: DashboardMessagePage, ...readErrors },
    },
  },
  dashboardGetMessage: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/channels/:channelId/messages/:messageId',
    schema: {
      ...common,
      operationId: 'dashboardGetMessage',
      summary: 'One message',
      description: 'With its addressees, mentions and retraction time. 404 for a message not in this channel. Any member.' + CURRENT_READ,
      params: DashboardChannelMessageParams,
      response: { 200: DashboardMessage, ...readErrors },
    },
  },
  dashboardRetractMessage: {
    method: 'POST',
    url: '/v1/dashboard/environments/:envId/channels/:channelId/messages/:messageId/retract',
    schema: {
      ...common,
      operationId: 'dashboardRetractMessage',
      summary: 'Retract a message',
      description:
        'The same retraction as DELETE /v1/channels/{channelId}/messages/{messageId} with the secret key: the ' +
        'content becomes a tombstone, sockets get `{op:"retract", id, seq, reason}` and a `message.retracted` ' +
        'webhook is sent. The reason is required and kept in the audit log. Retracting a retracted message ' +
        'changes nothing and answers it. 404 for a message not in this channel; 503 `unavailable` when the ' +
        'channel owner does not answer in time (retrying is safe).' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardChannelMessageParams,
      body: DashboardRetractBody,
      response: { 200: DashboardMessage, ...writeErrors },
    },
  },
} as const satisfies Operations;
