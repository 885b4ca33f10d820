import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HISTORY_LIMIT_DEFAULT, type HistoryResponse, type PublishBody, controlMessageOperations, realtimeMessageOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { authorize, authorizeRetract, contentText, keyAuth, requireSecretKey, requireUser, sendPublish, userAuth } from '@rtm/edge';
import { readMessages, type ReadRange } from '@rtm/channels';

type Host = 'control' | 'realtime';

/** Hands a publish to the channel's owner; the 201 body, or the 202 body of an ephemeral message. */
async function publish(
  deps: GatewayDeps,
  environmentId: string,
  channelId: string,
  body: z.infer<typeof PublishBody>,
  bodyText: string,
  kind: 'server' | 'user',
  sender: { id: string; anon: boolean },
): Promise<{ id: string; seq: number; timestamp: number } | { id: string; ephemeral: true }> {
  // the content goes on as the text it arrived as
  const result = await sendPublish(deps, environmentId, channelId, { ...body, content: contentText(bodyText) }, kind, sender, 'http');
  if (result.ephemeral) return { id: result.id, ephemeral: true };
  return { id: result.id, seq: result.seq, timestamp: result.timestamp };
}

/** Resolves the environment, and for users checks access to the channel. */
async function caller(deps: GatewayDeps, host: Host, request: FastifyRequest, channelId: string, action: 'history' | 'publish') {
  if (host === 'control') return { environmentId: keyAuth(request).environmentId, user: undefined };
  const auth = userAuth(request);
  await authorize(deps, auth, channelId, action);
  return { environmentId: auth.environmentId, user: auth };
}

function messageRoutes(host: Host) {
  return async function channelMessageRoutes(app: ZodApp, deps: GatewayDeps) {
    const onRequest = host === 'control' ? requireSecretKey(deps) : requireUser(deps);
    const operations = host === 'control' ? controlMessageOperations : realtimeMessageOperations;

    if (host === 'control') {
      app.route({
        ...controlMessageOperations.publishMessage,
        onRequest,
        handler: async (request, reply) => {
          const { environmentId } = keyAuth(request);
          const sender = { id: request.body.senderId ?? 'server', anon: false };
          const result = await publish(deps, environmentId, request.params.channelId, request.body, request.bodyText, 'server', sender);
          // the value, not the reply: returning the reply makes Fastify wait on the response stream per request
          reply.code('seq' in result ? 201 : 202);
          return result;
        },
      });
    } else {
      app.route({
        ...realtimeMessageOperations.publishMessage,
        onRequest,
        handler: async (request, reply) => {
          const { user } = await caller(deps, host, request, request.params.channelId, 'publish');
          const sender = { id: user!.userId, anon: user!.anon };
          const result = await publish(deps, user!.environmentId, request.params.channelId, request.body, request.bodyText, 'user', sender);
          // the value, not the reply: returning the reply makes Fastify wait on the response stream per request
          reply.code('seq' in result ? 201 : 202);
          return result;
        },
      });
    }

    app.route({
      ...operations.retractMessage,
      onRequest,
      handler: async (request) => {
        const { channelId, messageId } = request.params;
        if (host === 'control') {
          const { environmentId } = keyAuth(request);
          return deps.owners.send({ op: 'retract', environmentId, channelId, messageId, reason: request.body?.reason });
        }
        const auth = userAuth(request);
        const onlySender = await authorizeRetract(deps, auth, channelId);
        return deps.owners.send({ op: 'retract', environmentId: auth.environmentId, channelId, messageId, reason: request.body?.reason, onlySender });
      },
    });

    app.route({
      ...operations.listMessages,
      onRequest,
      handler: async (request, reply) => {
        const { channelId } = request.params;
        const { limit = HISTORY_LIMIT_DEFAULT, before, after } = request.query;
        const { environmentId, user } = await caller(deps, host, request, channelId, 'history');
        const range: ReadRange = { after, before, limit: limit + 1, newest: after === undefined, viewer: user?.userId };
        // a replica answers once it has every change committed before the request, retractions
        // and erasures included (docs/read-replicas.md)
        const rows = await deps.reads.current('history', (db) => readMessages(db, environmentId, channelId, range));
        deps.usage.add(environmentId, 'history_reads');
        const hasMore = rows.length > limit;
        const page = rows.slice(0, limit);
        if (after === undefined) page.reverse();
        // the envelopes' texts as stored (content as published), spliced, never re-serialised
        const text = `{"messages":[${page.map((m) => m.text).join(',')}],"hasMore":${hasMore}}`;
        // a string payload with a JSON type is sent as it is (the route's serializer is for objects)
        return reply.type('application/json; charset=utf-8').send(text as unknown as z.infer<typeof HistoryResponse>);
      },
    });
  };
}

/** Control plane: publish (kind "server"), retract, history. */
export const controlChannelMessageRoutes = messageRoutes('control');
/** Realtime edge: publish (kind "user"), retract own messages, history. */
export const realtimeChannelMessageRoutes = messageRoutes('realtime');
