import { recordAudit } from '@rtm/accounts';
import { browseMessages, envelopeOfRow, findMessage, listChannels, type BrowsedRow } from '@rtm/channels';
import { dashboardMessageOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { decodeCursor, encodeCursor } from '../../http/list-cursor.ts';
import { sessionRoute } from './common.ts';

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

  app.route({
    ...dashboardMessageOperations.dashboardListChannels,
    ...secured,
    handler: async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      const limit = request.query.limit ?? 50;
      const after = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor, isChannelId);
      // browsing reflects every change committed before the request (docs/read-replicas.md)
      const { channels, more } = await deps.reads.current('browse', (db) => listChannels(db, environmentId, { after, limit }));
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
  });

  app.route({
    ...dashboardMessageOperations.dashboardListMessages,
    ...secured,
    handler: async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      const { channelId } = request.params;
      const { before, sender, type, since, until } = request.query;
      const limit = request.query.limit ?? 50;
      const filter = {
        before,
        sender,
        type,
        since: since === undefined ? undefined : Date.parse(since),
        until: until === undefined ? undefined : Date.parse(until),
        limit,
      };
      const { rows: page, more } = await deps.reads.current('browse', (db) => browseMessages(db, environmentId, channelId, filter));
      return {
        data: page.map((row) => messageJson(channelId, row)),
        nextBefore: more ? page[page.length - 1]!.seq : null,
      };
    },
  });

  app.route({
    ...dashboardMessageOperations.dashboardGetMessage,
    ...secured,
    handler: async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      const { channelId, messageId } = request.params;
      return messageJson(channelId, await deps.reads.current('browse', (db) => findMessage(db, environmentId, channelId, messageId)));
    },
  });

  // a retraction reads the message before and after its own write: on the primary
  app.route({
    ...dashboardMessageOperations.dashboardRetractMessage,
    ...secured,
    handler: async (request) => {
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
  });
}
