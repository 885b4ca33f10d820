import { recordAudit } from '@rtm/accounts';
import { browseMessages, envelopeOfRow, findMessage, listChannels, type BrowsedRow } from '@rtm/channels';
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
} from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { decodeCursor, encodeCursor } from '../../http/list-cursor.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, csrfHeaders, readErrors, sessionRoute, writeErrors } from './common.ts';

const MANAGE = ' Admins and owners (403 for viewers).';

const messageJson = (channelId: string, row: BrowsedRow) => ({
  ...envelopeOfRow(row),
  channelId,
  retractedAt: row.retracted_at ? row.retracted_at.toISOString() : null,
});

// the channels' cursor is the last channel id shown (list-cursor.ts)
const isChannelId = (id: string) => /^[A-Za-z0-9_.:@=-]{1,128}$/.test(id);

/** Control plane: the message browser of an environment (channels, history pages, one message, retraction). */
export async function dashboardMessageRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);
  const common = { tags: TAGS, security: SESSION_SECURITY };

  app.get(
    '/v1/dashboard/environments/:envId/channels',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListChannels',
        summary: 'The channels of an environment',
        description:
          'The environment\'s channels as stored by their owners, by channel id, each with its message ' +
          'count (retracted ones included) and last activity (the newest persisted message). `limit` default 50, ' +
          'maximum 500; `cursor` is the previous page\'s `nextCursor`. Any member.',
        params: DashboardEnvParams,
        querystring: DashboardChannelsQuery,
        response: { 200: DashboardChannelList, ...readErrors },
      },
    },
    async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      const limit = request.query.limit ?? 50;
      const after = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor, isChannelId);
      const { channels, more } = await listChannels(deps.pool, environmentId, { after, limit });
      return {
        data: channels.map((channel) => ({
          channelId: channel.id,
          messageCount: channel.messageCount,
          lastSeq: channel.lastSeq,
          lastActivityAt: channel.lastTs === null ? null : new Date(channel.lastTs).toISOString(),
          createdAt: channel.createdAt.toISOString(),
        })),
        nextCursor: more ? encodeCursor(channels[channels.length - 1]!.id) : null,
      };
    },
  );

  app.get(
    '/v1/dashboard/environments/:envId/channels/:channelId/messages',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListMessages',
        summary: 'A page of a channel\'s messages',
        description:
          'Persisted messages, newest first, tombstones of retracted ones included, and messages addressed with `to` ' +
          '(the control plane sees them all). Filters: `sender` (sender id), `type`, `since` (inclusive) and `until` ' +
          '(exclusive) on the publish time. `limit` default 50, maximum 500; `before` is the previous page\'s ' +
          '`nextBefore`. A channel without messages (or unknown) answers an empty page. Any member.',
        params: DashboardChannelParams,
        querystring: DashboardMessagesQuery,
        response: { 200: DashboardMessagePage, ...readErrors },
      },
    },
    async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      const { channelId } = request.params;
      const { before, sender, type, since, until } = request.query;
      const limit = request.query.limit ?? 50;
      const { rows: page, more } = await browseMessages(deps.pool, environmentId, channelId, {
        before,
        sender,
        type,
        since: since === undefined ? undefined : Date.parse(since),
        until: until === undefined ? undefined : Date.parse(until),
        limit,
      });
      return {
        data: page.map((row) => messageJson(channelId, row)),
        nextBefore: more ? page[page.length - 1]!.seq : null,
      };
    },
  );

  app.get(
    '/v1/dashboard/environments/:envId/channels/:channelId/messages/:messageId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardGetMessage',
        summary: 'One message',
        description: 'With its addressees, mentions and retraction time. 404 for a message not in this channel. Any member.',
        params: DashboardChannelMessageParams,
        response: { 200: DashboardMessage, ...readErrors },
      },
    },
    async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      const { channelId, messageId } = request.params;
      return messageJson(channelId, await findMessage(deps.pool, environmentId, channelId, messageId));
    },
  );

  app.post(
    '/v1/dashboard/environments/:envId/channels/:channelId/messages/:messageId/retract',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRetractMessage',
        summary: 'Retract a message',
        description:
          'The same retraction as DELETE /v1/channels/{channelId}/messages/{messageId} with the secret key: the ' +
          'content becomes a tombstone, sockets get `{op:"retract", id, seq, reason}` and a `message.retracted` ' +
          'webhook is sent. The reason is required and kept in the audit log. Retracting a retracted message ' +
          'changes nothing and answers it. 404 for a message not in this channel; 503 `unavailable` when the ' +
          'channel owner does not answer in time (retrying is safe).' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardChannelMessageParams,
        body: DashboardRetractBody,
        response: { 200: DashboardMessage, ...writeErrors },
      },
    },
    async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const { channelId, messageId } = request.params;
      const before = await findMessage(deps.pool, environmentId, channelId, messageId);
      const result = await deps.owners.send({ op: 'retract', environmentId, channelId, messageId, reason: request.body.reason });
      if (!before.retracted) {
        // after the owner committed the retraction: the command goes through the channel's
        // owner, outside any transaction of this process
        await recordAudit(deps.pool, actor, {
          organizationId,
          action: 'message.retracted',
          targetType: 'message',
          targetId: messageId,
          details: { environmentId, channelId, seq: result.seq, reason: request.body.reason },
        });
      }
      return messageJson(channelId, await findMessage(deps.pool, environmentId, channelId, messageId));
    },
  );
}
