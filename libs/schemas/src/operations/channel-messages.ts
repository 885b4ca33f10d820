import type { z } from 'zod';
import { ErrorBody } from '../common.ts';
import {
  ChannelMessageParams,
  EphemeralPublishResponse,
  HistoryQuery,
  HistoryResponse,
  PublishBody,
  PublishResponse,
  RetractBody,
  RetractResponse,
  ServerPublishBody,
} from '../channels.ts';
import { ChannelParams } from '../members.ts';
import { SECRET_KEY, USER_TOKEN, type Operation, type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };
const tags = ['messages'];

const PUBLISH_DESCRIPTION =
  'Answered only after the message is committed (201), or after an ephemeral message was handed to the channel owner ' +
  'for fan-out (202; not persisted, no webhook, no history, no seq advance). The same `idempotencyKey` on the same channel ' +
  'within 24 h returns the first result and creates nothing. 503 `unavailable` when no channel owner answers within ' +
  'OWNER_TIMEOUT_MS: if the owner timed out the outcome is unknown, so retry with an `idempotencyKey`. A persisted ' +
  'publish with an `idempotencyKey` that has no answer after 1 s is sent to the owner again by the gateway (the key makes ' +
  'the repeat safe), so a request lost on the message bus costs about a second, not OWNER_TIMEOUT_MS. When the channel ' +
  "owner stops (its process dies) with the publish in flight, the gateway learns it when the owner's partitions move " +
  '(about one rebalance interval): a publish with an `idempotencyKey` is sent to the next owner, any other is answered ' +
  '503 at once, outcome unknown. ' +
  'Control plane (secret key): kind "server", sender `senderId` (default "server"), no access checks. ' +
  'Realtime edge (user token): kind "user", the sender is the token\'s user (`senderId` is refused with 400); needs ' +
  'publish access: not banned, the `publish` capability, access to the channel, a role other than `readonly`, and for an ' +
  'anonymous token a namespace that lets anonymous tokens publish (403 `forbidden` or `banned`). In a namespace with ' +
  "`persist: false` every message is ephemeral (202); a namespace's `maxContentBytes` lowers the content limit (413). " +
  "The limits count the content's bytes as sent (its UTF-8 text, spacing included), and those bytes are kept exactly " +
  '(key order, spacing, escapes) on socket frames, in history and in webhook bodies.';

/**
 * Publish, retract and history: the same operations on both hosts, with that host's credential;
 * only the publish body differs (server publishes may name a sender).
 */
function messageOperations<Body extends z.ZodType>(security: Operation['schema']['security'], publishBody: Body) {
  return {
    publishMessage: {
      method: 'POST',
      url: '/v1/channels/:channelId/messages',
      schema: {
        operationId: 'publishMessage',
        summary: 'Publish a message',
        description: PUBLISH_DESCRIPTION,
        tags,
        security,
        params: ChannelParams,
        body: publishBody,
        response: { 201: PublishResponse, 202: EphemeralPublishResponse, ...errors },
      },
    },
    retractMessage: {
      method: 'DELETE',
      url: '/v1/channels/:channelId/messages/:messageId',
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
    listMessages: {
      method: 'GET',
      url: '/v1/channels/:channelId/history',
      schema: {
        operationId: 'listMessages',
        summary: 'Read message history',
        description:
          "Persisted messages ascending by seq (oldest first) in every page, whichever way one pages; the client SDK's " +
          '`history()` iterates newest first by default, reversing each page (its `direction` option). ' +
          '`limit` default 50, max 500; `before`/`after` are exclusive seq bounds. ' +
          'With `after` the page is the oldest messages after it; otherwise the newest (before `before`, if given). ' +
          '`hasMore` says more messages exist beyond the page in that direction (older without `after`, newer with it). ' +
          'Each `content` is the exact bytes it was published as (key order, spacing, escapes). ' +
          'Retracted messages appear tombstoned. A channel with no messages answers an empty page. ' +
          'Freshness (docs/read-replicas.md): a page reflects every change committed before the request, messages published ' +
          'and messages retracted or erased alike; a replica that has not replayed that far yet is waited for briefly, then the ' +
          'primary answers. Realtime edge: needs ' +
          "read access and the `history` capability, and the channel's namespace must not set `history: false` (403 " +
          '`forbidden`); messages addressed with `to` are shown only to their addressees and sender.',
        tags,
        security,
        params: ChannelParams,
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...errors },
      },
    },
  } as const satisfies Operations;
}

/** Control plane: publish (kind "server"), retract, history. */
export const controlMessageOperations = messageOperations(SECRET_KEY, ServerPublishBody);
/** Realtime edge: publish (kind "user"), retract own messages, history. */
export const realtimeMessageOperations = messageOperations(USER_TOKEN, PublishBody);
