/**
 * Edits, versions and reactions on both hosts (docs/channels.md, "Messages that change"): the
 * control plane acts on any message (and names the user of a reaction); the realtime edge acts as
 * the token's user, checked by libs/edge (message-changes.ts).
 */
import { ServiceError } from '@rtm/errors';
import type { z } from 'zod';
import { controlChangeOperations, realtimeChangeOperations, type MessageVersions } from '@rtm/schemas';
import { authorize, contentText, keyAuth, requireSecretKey, requireUser, sendEdit, sendReaction, userAuth, userEdit, userReaction } from '@rtm/edge';
import { readVersions } from '@rtm/channels';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';

/** Control plane: edit any message, react on behalf of a user, list versions. */
export async function controlChangeRoutes(app: ZodApp, deps: GatewayDeps) {
  const onRequest = requireSecretKey(deps);
  const ops = controlChangeOperations;

  app.route({
    ...ops.editMessage,
    onRequest,
    handler: async (request) => {
      const { channelId, messageId } = request.params;
      const { environmentId } = keyAuth(request);
      const content = contentText(request.bodyText);
      return sendEdit(deps, { environmentId, channelId, messageId, content, editor: request.body.userId ?? null });
    },
  });

  app.route({
    ...ops.addReaction,
    onRequest,
    handler: async (request) => {
      const { channelId, messageId } = request.params;
      const { environmentId } = keyAuth(request);
      const { type, userId } = request.body;
      return sendReaction(deps, { environmentId, channelId, messageId, type, userId, remove: false, asReader: false });
    },
  });

  app.route({
    ...ops.removeReaction,
    onRequest,
    handler: async (request) => {
      const { channelId, messageId, type } = request.params;
      const { environmentId } = keyAuth(request);
      return sendReaction(deps, { environmentId, channelId, messageId, type, userId: request.query.userId, remove: true, asReader: false });
    },
  });

  app.route({
    ...ops.listMessageVersions,
    onRequest,
    handler: async (request, reply) => {
      const { channelId, messageId } = request.params;
      const { environmentId } = keyAuth(request);
      const text = await versions(deps, environmentId, channelId, messageId);
      // the contents' texts as stored, spliced, never re-serialised
      return reply.type('application/json; charset=utf-8').send(text as unknown as z.infer<typeof MessageVersions>);
    },
  });
}

/** Realtime edge: edit one's own messages, react as oneself, list versions of what one may read. */
export async function realtimeChangeRoutes(app: ZodApp, deps: GatewayDeps) {
  const onRequest = requireUser(deps);
  const ops = realtimeChangeOperations;

  app.route({
    ...ops.editMessage,
    onRequest,
    handler: async (request) => {
      const { channelId, messageId } = request.params;
      return userEdit(deps, userAuth(request), channelId, messageId, contentText(request.bodyText));
    },
  });

  app.route({
    ...ops.addReaction,
    onRequest,
    handler: async (request) => {
      const { channelId, messageId } = request.params;
      return userReaction(deps, userAuth(request), channelId, messageId, request.body.type, false);
    },
  });

  app.route({
    ...ops.removeReaction,
    onRequest,
    handler: async (request) => {
      const { channelId, messageId, type } = request.params;
      return userReaction(deps, userAuth(request), channelId, messageId, type, true);
    },
  });

  app.route({
    ...ops.listMessageVersions,
    onRequest,
    handler: async (request, reply) => {
      const { channelId, messageId } = request.params;
      const auth = userAuth(request);
      await authorize(deps, auth, channelId, 'history');
      const text = await versions(deps, auth.environmentId, channelId, messageId, auth.userId);
      return reply.type('application/json; charset=utf-8').send(text as unknown as z.infer<typeof MessageVersions>);
    },
  });
}

/** The `{versions}` JSON text of a message; 404 when it is not in the channel (or not for `viewer`). */
async function versions(deps: GatewayDeps, environmentId: string, channelId: string, messageId: string, viewer?: string) {
  // like history: a replica answers once it has every change committed before the request
  const text = await deps.reads.current('history', (db) => readVersions(db, environmentId, channelId, messageId, viewer));
  if (text === null) throw new ServiceError('not_found', 'no such message in this channel');
  return text;
}
