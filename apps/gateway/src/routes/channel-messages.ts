import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ChannelParams,
  ChannelMessageParams,
  ErrorBody,
  EphemeralPublishResponse,
  HISTORY_LIMIT_DEFAULT,
  HistoryQuery,
  HistoryResponse,
  PublishBody,
  PublishResponse,
  RetractBody,
  RetractResponse,
  ServerPublishBody,
} from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey, requireUser, userAuth } from '../auth/authenticate.ts';
import { authorize, authorizeRetract } from '../access/channel-access.ts';
import { sendPublish } from '../channels/publish.ts';
import { readMessages } from '@rtm/channels';
import { contentText } from '../channels/raw-content.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

type Host = 'control' | 'realtime';

const PUBLISH_DESCRIPTION =
  'Answered only after the message is committed (201), or after an ephemeral message was handed to the channel owner ' +
  'for fan-out (202; not persisted, no webhook, no history, no seq advance). The same `idempotencyKey` on the same channel ' +
  'within 24 h returns the first result and creates nothing. 503 `unavailable` when no channel owner answers within ' +
  'OWNER_TIMEOUT_MS: if the owner timed out the outcome is unknown, so retry with an `idempotencyKey`. A persisted ' +
  'publish with an `idempotencyKey` that has no answer after 1 s is sent to the owner again by the gateway (the key makes ' +
  'the repeat safe), so a request lost on the message bus costs about a second, not OWNER_TIMEOUT_MS. ' +
  'Control plane (secret key): kind "server", sender `senderId` (default "server"), no access checks. ' +
  'Realtime edge (user token): kind "user", the sender is the token\'s user (`senderId` is refused with 400); needs ' +
  'publish access: not banned, the `publish` capability, access to the channel, a role other than `readonly`, and for an ' +
  'anonymous token a namespace that lets anonymous tokens publish (403 `forbidden` or `banned`). In a namespace with ' +
  '`persist: false` every message is ephemeral (202); a namespace\'s `maxContentBytes` lowers the content limit (413). ' +
  'The limits count the content\'s bytes as sent (its UTF-8 text, spacing included), and those bytes are kept exactly ' +
  '(key order, spacing, escapes) on socket frames, in history and in webhook bodies.';

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
  const result = await sendPublish(deps, environmentId, channelId, { ...body, content: contentText(bodyText) }, kind, sender);
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
    const security = host === 'control' ? [{ secretKey: [] }] : [{ userToken: [] }];
    const tags = ['messages'];
    // the same operation on both hosts; only the body (server publishes may name a sender) differs
    const publishSchema = <Body>(body: Body) => ({
      operationId: 'publishMessage',
      summary: 'Publish a message',
      description: PUBLISH_DESCRIPTION,
      tags,
      security,
      params: ChannelParams,
      body,
      response: { 201: PublishResponse, 202: EphemeralPublishResponse, ...errors },
    });

    if (host === 'control') {
      app.post(
        '/v1/channels/:channelId/messages',
        { onRequest, schema: publishSchema(ServerPublishBody) },
        async (request, reply) => {
          const { environmentId } = keyAuth(request);
          const sender = { id: request.body.senderId ?? 'server', anon: false };
          const result = await publish(deps, environmentId, request.params.channelId, request.body, request.bodyText, 'server', sender);
          // the value, not the reply: returning the reply makes Fastify wait on the response stream per request
          reply.code('seq' in result ? 201 : 202);
          return result;
        },
      );
    } else {
      app.post(
        '/v1/channels/:channelId/messages',
        { onRequest, schema: publishSchema(PublishBody) },
        async (request, reply) => {
          const { user } = await caller(deps, host, request, request.params.channelId, 'publish');
          const sender = { id: user!.userId, anon: user!.anon };
          const result = await publish(deps, user!.environmentId, request.params.channelId, request.body, request.bodyText, 'user', sender);
          // the value, not the reply: returning the reply makes Fastify wait on the response stream per request
          reply.code('seq' in result ? 201 : 202);
          return result;
        },
      );
    }

    app.delete(
      '/v1/channels/:channelId/messages/:messageId',
      {
        onRequest,
        schema: {
          operationId: 'retractMessage',
          summary: 'Retract a message',
          description:
            'Replaces the content with a tombstone (history shows it with `retracted: true`, `content: null`), sends ' +
            '`{op:"retract", id, seq, reason?}` on sockets and a `message.retracted` webhook. Idempotent: a second retraction ' +
            'changes nothing and emits nothing. 404 for a message not in this channel. The body (`reason`) may be left ' +
            'out. Realtime edge: needs publish (capability, role, namespace); the sender may retract their own message and a ' +
            '`moderator` of the channel any message; anyone else is refused with 403 `forbidden`.',
          tags,
          security,
          params: ChannelMessageParams,
          body: RetractBody.optional(),
          response: { 200: RetractResponse, ...errors },
        },
      },
      async (request) => {
        const { channelId, messageId } = request.params;
        if (host === 'control') {
          const { environmentId } = keyAuth(request);
          return deps.owners.send({ op: 'retract', environmentId, channelId, messageId, reason: request.body?.reason });
        }
        const auth = userAuth(request);
        const onlySender = await authorizeRetract(deps, auth, channelId);
        return deps.owners.send({ op: 'retract', environmentId: auth.environmentId, channelId, messageId, reason: request.body?.reason, onlySender });
      },
    );

    app.get(
      '/v1/channels/:channelId/history',
      {
        onRequest,
        schema: {
          operationId: 'listMessages',
          summary: 'Read message history',
          description:
            'Persisted messages ascending by seq. `limit` default 50, max 500; `before`/`after` are exclusive seq bounds. ' +
            'With `after` the page is the oldest messages after it; otherwise the newest (before `before`, if given). ' +
            '`hasMore` says more messages exist beyond the page in that direction (older without `after`, newer with it). ' +
            'Each `content` is the exact bytes it was published as (key order, spacing, escapes). ' +
            'Retracted messages appear tombstoned. A channel with no messages answers an empty page. Realtime edge: needs ' +
            'read access and the `history` capability, and the channel\'s namespace must not set `history: false` (403 ' +
            '`forbidden`); messages addressed with `to` are shown only to their addressees and sender.',
          tags,
          security,
          params: ChannelParams,
          querystring: HistoryQuery,
          response: { 200: HistoryResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { channelId } = request.params;
        const { limit = HISTORY_LIMIT_DEFAULT, before, after } = request.query;
        const { environmentId, user } = await caller(deps, host, request, channelId, 'history');
        const rows = await readMessages(deps.pool, environmentId, channelId, {
          after,
          before,
          limit: limit + 1,
          newest: after === undefined,
          viewer: user?.userId,
        });
        const hasMore = rows.length > limit;
        const page = rows.slice(0, limit);
        if (after === undefined) page.reverse();
        // the envelopes' texts as stored (content as published), spliced, never re-serialised
        const text = `{"messages":[${page.map((m) => m.text).join(',')}],"hasMore":${hasMore}}`;
        // a string payload with a JSON type is sent as it is (the route's serializer is for objects)
        return reply.type('application/json; charset=utf-8').send(text as unknown as z.infer<typeof HistoryResponse>);
      },
    );
  };
}

/** Control plane: publish (kind "server"), retract, history. */
export const controlChannelMessageRoutes = messageRoutes('control');
/** Realtime edge: publish (kind "user"), retract own messages, history. */
export const realtimeChannelMessageRoutes = messageRoutes('realtime');
