/**
 * The AsyncAPI 3.0 document of the multiplexed socket `GET /v1/connect` and of its event stream
 * `GET /v1/events`, from the zod schemas that validate its client frames (ConnectFrame) and
 * describe its server frames (SERVER_FRAMES, and EVENT_STREAM_FRAMES for the stream), so the
 * document cannot drift from the code. Written to docs/asyncapi.yaml by scripts/write-asyncapi.ts
 * and served at `/asyncapi.json` by both hosts.
 */
import { z } from 'zod';
import { ConnectFrame, EVENT_STREAM_FRAMES, EventsQuery, SERVER_FRAMES } from '@rtm/schemas';
import { DEFAULT_ORIGINS } from './openapi.ts';
import { inlineDefs } from './json-schema.ts';

const CLIENT_DESCRIPTIONS: Record<string, string> = {
  subscribe:
    'Replays persisted messages with seq > since (or the last N, or those of a duration, with `rewind`; `since` wins), then `subscribed`, then live frames of the channel.',
  unsubscribe: 'Ends a subscription (also one still replaying); answered with `unsubscribed`.',
  publish: 'Publishes to a channel (publish access needed, no subscription); answered with `ack` or `error`.',
  retract: "Retracts a message the user sent; answered with `ack` (retracted, with the retraction's `eventSeq`) or `error`.",
  edit: 'Replaces the content of a message the user sent with a new version (the `edit` capability); answered with `ack` (`version`, `updatedAt`, `eventSeq`) or `error`; subscribers get an `update` frame.',
  react:
    "Adds the user's reaction of `type` to a message (the `react` capability); answered with `ack` (`type`, `reacted: true`) when its summary commits (at most 250 ms); subscribers get a `summary` frame.",
  unreact: "Takes back the user's reaction of `type`; answered with `ack` (`reacted: false`); summarised like `react`.",
  'remove-member': 'A moderator removes a member of the channel; answered with `member-removed` or `error`.',
  'ban-member': 'A moderator bans a user from the channel (`reason`, `expiresAt` optional); answered with `member-banned` or `error`.',
  'unban-member': 'A moderator lifts a ban on the channel; answered with `member-unbanned` or `error`.',
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
  // a payload stands inside the document: no `$defs` of its own to point into
  return inlineDefs(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
}

/**
 * The document's `servers`: the realtime edge at `realtimeOrigin` (http(s) or ws(s)), as ws or wss
 * for the socket and as http or https for the event stream.
 */
export function asyncApiServers(realtimeOrigin: string): Record<string, unknown> {
  const url = new URL(realtimeOrigin);
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  return {
    realtime: {
      host: url.host,
      protocol: secure ? 'wss' : 'ws',
      description: 'The realtime edge of a gateway (REALTIME_PUBLIC_URL, else its host with REALTIME_PORT); wss behind TLS.',
    },
    realtimeHttp: {
      host: url.host,
      protocol: secure ? 'https' : 'http',
      description: 'The same realtime edge over HTTP, for the event stream `GET /v1/events`.',
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
  // the event stream: /v1/connect's server frames it can carry, and `closed`
  const eventMessages: Record<string, unknown> = {};
  const eventRefs: { $ref: string }[] = [];
  for (const [key, schema] of Object.entries(EVENT_STREAM_FRAMES)) {
    const name = `event.${key}`;
    eventMessages[name] = { name: key, title: `event ${key}`, summary: schema.description, payload: schemaOf(schema) };
    eventRefs.push({ $ref: `#/channels/events/messages/${name}` });
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Realtime edge: multiplexed socket',
      version: '1.0.0',
      license: { name: 'MIT' },
      description:
        "One WebSocket for many channel subscriptions and the user's inbox. Every frame is a JSON text frame. " +
        'The same server frames also come as server-sent events (`GET /v1/events`), for clients whose WebSockets are blocked. ' +
        'Ordering, replay, event ids and close codes are described in docs/protocol.md.',
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
        servers: [{ $ref: '#/servers/realtime' }],
        bindings: { ws: { method: 'GET', query: { type: 'object', properties: { token: { type: 'string' } }, additionalProperties: false } } },
        messages,
      },
      events: {
        address: '/v1/events',
        title: 'GET /v1/events',
        description:
          'Server-sent events (`text/event-stream`) for up to 20 channels named in `channels`. Token in `Authorization: Bearer <jwt>` ' +
          'or `?token=<jwt>`. Each event is `id: <positions>` and `data: <one frame as JSON>` (no `event:` field). The id holds ' +
          "every channel's position, comma-separated `<h>~<seq>` (`<h>`: the first 8 characters of base64url(sha256(channelId))); " +
          'a reconnect with `Last-Event-ID` (or `lastEventId=`) resumes each channel with no gap and no duplicate. Refusals ' +
          'before the stream are HTTP errors (400, 401, 403, 429, 503); the server ends a stream with `retry: <ms>` and ' +
          '`{op:"closed", code, reason}` (4401, 4403, 4429, 4500, 4503).',
        servers: [{ $ref: '#/servers/realtimeHttp' }],
        messages: eventMessages,
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
      receiveEvents: {
        action: 'receive',
        title: 'Server-sent events',
        summary: 'What the gateway sends on an event stream: a subset of the server frames, and `closed`.',
        channel: { $ref: '#/channels/events' },
        bindings: { http: { method: 'GET', query: schemaOf(EventsQuery) } },
        messages: eventRefs,
      },
    },
  };
}
