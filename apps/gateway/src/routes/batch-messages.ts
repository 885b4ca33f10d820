import { BatchPublishBody, BatchPublishResponse, ErrorBody, MAX_BATCH_BODY_BYTES, MAX_BATCH_MESSAGES, ServerBatchPublishBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey, requireUser, userAuth } from '../auth/authenticate.ts';
import { authorize } from '../access/channel-access.ts';
import { publishBatch } from '../channels/batch-publish.ts';
import { batchContentTexts } from '../channels/raw-content.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody };

const DESCRIPTION =
  `Publishes 1 to ${MAX_BATCH_MESSAGES} messages, for one or many channels, in one request (body at most 1 MiB: 413 ` +
  '`payload_too_large` above it). Answers 200 with one result per message, in request order: `{id, seq, timestamp}` for a ' +
  'message committed before the answer, `{id, ephemeral: true}` for an ephemeral one, or `{error: {code, reason}}` for a ' +
  'message that was not published (the others are unaffected). Each message passes the checks of the single publish route ' +
  'and counts once against the per-message rate limits: messages past a limit get `rate_limited` and those before it are ' +
  'published. Messages for the same channel get seqs in request order. A malformed body (any message) is 400 for the ' +
  'whole request, nothing published. ';

/** The messages with each `content` as the text it arrived as (raw-content.ts). */
function withContentText<M extends { content: Record<string, unknown> }>(messages: M[], bodyText: string): (Omit<M, 'content'> & { content: string })[] {
  const texts = batchContentTexts(bodyText);
  if (texts.length !== messages.length) throw new Error('the batch body and its raw text disagree');
  return messages.map((message, i) => ({ ...message, content: texts[i]! }));
}

/** `POST /v1/messages/batch` on the control plane (secret key; kind "server"). */
export async function controlBatchRoutes(app: ZodApp, deps: GatewayDeps): Promise<void> {
  app.post(
    '/v1/messages/batch',
    {
      onRequest: requireSecretKey(deps),
      bodyLimit: MAX_BATCH_BODY_BYTES,
      schema: {
        operationId: 'publishBatch',
        summary: 'Publish several messages',
        description: `${DESCRIPTION}Control plane: kind "server", sender \`senderId\` per message (default "server"), no access checks.`,
        tags: ['messages'],
        security: [{ secretKey: [] }],
        body: ServerBatchPublishBody,
        response: { 200: BatchPublishResponse, ...errors },
      },
    },
    async (request) => ({
      results: await publishBatch(deps, { environmentId: keyAuth(request).environmentId, kind: 'server' }, withContentText(request.body.messages, request.bodyText)),
    }),
  );
}

/** `POST /v1/messages/batch` on the realtime edge (user token; kind "user", sender the token's user). */
export async function realtimeBatchRoutes(app: ZodApp, deps: GatewayDeps): Promise<void> {
  app.post(
    '/v1/messages/batch',
    {
      onRequest: requireUser(deps),
      bodyLimit: MAX_BATCH_BODY_BYTES,
      schema: {
        operationId: 'publishBatch',
        summary: 'Publish several messages',
        description:
          `${DESCRIPTION}Realtime edge: kind "user", the sender is the token's user; each message needs publish access to its ` +
          'channel, as on the single route (refused: `forbidden` or `banned` in its result).',
        tags: ['messages'],
        security: [{ userToken: [] }],
        body: BatchPublishBody,
        response: { 200: BatchPublishResponse, ...errors },
      },
    },
    async (request) => {
      const auth = userAuth(request);
      const caller = {
        environmentId: auth.environmentId,
        kind: 'user' as const,
        user: { id: auth.userId, anon: auth.anon },
        authorize: (channelId: string) => authorize(deps, auth, channelId, 'publish'),
      };
      return { results: await publishBatch(deps, caller, withContentText(request.body.messages, request.bodyText)) };
    },
  );
}
