/**
 * The AsyncAPI 3.0 document of the multiplexed socket `GET /v1/connect`, from the zod schemas that
 * validate its client frames (ConnectFrame) and describe its server frames (SERVER_FRAMES), so the
 * document cannot drift from the code. Written to docs/asyncapi.yaml by scripts/write-asyncapi.ts
 * and served at `/asyncapi.json` by both hosts.
 */
import { z } from 'zod';
import { ConnectFrame, SERVER_FRAMES } from '@rtm/schemas';
import { DEFAULT_ORIGINS } from './openapi.ts';

const CLIENT_DESCRIPTIONS: Record<string, string> = {
  subscribe: 'Replays persisted messages with seq > since, then `subscribed`, then live frames of the channel.',
  unsubscribe: 'Ends a subscription (also one still replaying); answered with `unsubscribed`.',
  publish: 'Publishes to a channel (publish access needed, no subscription); answered with `ack` or `error`.',
  retract: 'Retracts a message the user sent; answered with `ack` (retracted) or `error`.',
  'presence-enter': "Enters the channel's presence with `data` (a live subscription, the `presence` capability); answered with `presence-entered`.",
  'presence-update': "Replaces the data of the subscription's presence entry; answered with `presence-updated` (an error before `presence-enter`).",
  'presence-leave': "Leaves the channel's presence (the subscription stays); answered with `presence-left`.",
  'subscribe-inbox': "Replays the user's retained notifications with id > since, then `inbox-subscribed`, then live ones.",
  'unsubscribe-inbox': 'Stops inbox notifications; answered with `inbox-unsubscribed`.',
  auth: 'Renews the connection token in place (same user and environment, else close 4401).',
  ping: 'Answered with `pong`.',
};

const camel = (op: string) => op.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

function schemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** The document's `servers`: the realtime edge at `realtimeOrigin` (http(s) or ws(s)), as ws or wss. */
export function asyncApiServers(realtimeOrigin: string): Record<string, unknown> {
  const url = new URL(realtimeOrigin);
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  return {
    realtime: {
      host: url.host,
      protocol: secure ? 'wss' : 'ws',
      description: 'The realtime edge of a gateway (REALTIME_PUBLIC_URL, else its host with REALTIME_PORT); wss behind TLS.',
    },
  };
}

/**
 * The AsyncAPI 3.0 document with its one server at `realtimeOrigin` (an http(s) or ws(s) origin):
 * docs/asyncapi.yaml names the default port on localhost; `/asyncapi.json` names the realtime
 * edge as the request's client reaches it (REALTIME_PUBLIC_URL, else the request's host).
 */
export function buildAsyncApiDocument(realtimeOrigin = DEFAULT_ORIGINS.realtime): Record<string, unknown> {
  const messages: Record<string, unknown> = {};
  const clientRefs: { $ref: string }[] = [];
  const serverRefs: { $ref: string }[] = [];
  for (const option of ConnectFrame.options) {
    const op = (option.shape.op as z.ZodLiteral<string>).value;
    const name = `client.${camel(op)}`;
    messages[name] = { name: op, title: `client ${op}`, summary: CLIENT_DESCRIPTIONS[op], payload: schemaOf(option) };
    clientRefs.push({ $ref: `#/channels/connect/messages/${name}` });
  }
  for (const [key, schema] of Object.entries(SERVER_FRAMES)) {
    const name = `server.${key}`;
    messages[name] = { name: key, title: `server ${key}`, summary: schema.description, payload: schemaOf(schema) };
    serverRefs.push({ $ref: `#/channels/connect/messages/${name}` });
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Realtime edge: multiplexed socket',
      version: '1.0.0',
      license: { name: 'MIT' },
      description:
        'One WebSocket for many channel subscriptions and the user\'s inbox. Every frame is a JSON text frame. ' +
        'Ordering, replay and close codes are described in docs/protocol.md.',
    },
    servers: asyncApiServers(realtimeOrigin),
    channels: {
      connect: {
        address: '/v1/connect',
        title: 'GET /v1/connect',
        description:
          'Token in `Authorization: Bearer <jwt>` or `?token=<jwt>`. Closes with 4400 (bad query, frame over 128 KiB), ' +
          '4401 (bad or expired token), 4403 (banned from the environment), 4429 (inbound rate, socket quota), ' +
          '4500, 4503 (reconnect and resume).',
        bindings: { ws: { method: 'GET', query: { type: 'object', properties: { token: { type: 'string' } }, additionalProperties: false } } },
        messages,
      },
    },
    operations: {
      sendClientFrames: {
        action: 'send',
        title: 'Client frames',
        summary: 'What a client sends on the connection.',
        channel: { $ref: '#/channels/connect' },
        messages: clientRefs,
      },
      receiveServerFrames: {
        action: 'receive',
        title: 'Server frames',
        summary: 'What the gateway sends on the connection.',
        channel: { $ref: '#/channels/connect' },
        messages: serverRefs,
      },
    },
  };
}
