import { BatchPublishBody, BatchPublishResponse, MAX_BATCH_MESSAGES, ServerBatchPublishBody } from '../channels.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody };

const DESCRIPTION =
  `Publishes 1 to ${MAX_BATCH_MESSAGES} messages, for one or many channels, in one request (body at most 1 MiB: 413 ` +
  '`payload_too_large` above it). Answers 200 with one result per message, in request order: `{id, seq, timestamp}` for a ' +
  'message committed before the answer, `{id, ephemeral: true}` for an ephemeral one, or `{error: {code, reason}}` for a ' +
  'message that was not published (the others are unaffected). Each message passes the checks of the single publish route ' +
  'and counts once against the per-message rate limits: messages past a limit get `rate_limited` and those before it are ' +
  'published. Messages for the same channel get seqs in request order. A malformed body (any message) is 400 for the ' +
  'whole request, nothing published. ';

/** The batch publish, the same on both hosts but for the words, the credential and the body. */
const PUBLISH_BATCH = { method: 'POST', url: '/v1/messages/batch' } as const;
const PUBLISH_BATCH_SCHEMA = { operationId: 'publishBatch', summary: 'Publish several messages', tags: ['messages'] } as const;

/** `POST /v1/messages/batch` on the control plane (secret key; kind "server"). */
export const controlBatchOperations = {
  publishBatch: {
    ...PUBLISH_BATCH,
    schema: {
      ...PUBLISH_BATCH_SCHEMA,
      description: `${DESCRIPTION}Control plane: kind "server", sender \`senderId\` per message (default "server"), no access checks.`,
      security: [{ secretKey: [] }],
      body: ServerBatchPublishBody,
      response: { 200: BatchPublishResponse, ...errors },
    },
  },
} as const satisfies Operations;

/** `POST /v1/messages/batch` on the realtime edge (user token; kind "user", sender the token's user). */
export const realtimeBatchOperations = {
  publishBatch: {
    ...PUBLISH_BATCH,
    schema: {
      ...PUBLISH_BATCH_SCHEMA,
      description:
        `${DESCRIPTION}Realtime edge: kind "user", the sender is the token's user; each message needs publish access to its ` +
        'channel, as on the single route (refused: `forbidden` or `banned` in its result).',
      security: [{ userToken: [] }],
      body: BatchPublishBody,
      response: { 200: BatchPublishResponse, ...errors },
    },
  },
} as const satisfies Operations;
