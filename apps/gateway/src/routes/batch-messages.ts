import { MAX_BATCH_BODY_BYTES, controlBatchOperations, realtimeBatchOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { authorize, batchContentTexts, keyAuth, publishBatch, requireSecretKey, requireUser, userAuth } from '@rtm/edge';

/** The messages with each `content` as the text it arrived as (raw-content.ts). */
function withContentText<M extends { content: Record<string, unknown> }>(messages: M[], bodyText: string): (Omit<M, 'content'> & { content: string })[] {
  const texts = batchContentTexts(bodyText);
  if (texts.length !== messages.length) throw new Error('the batch body and its raw text disagree');
  return messages.map((message, i) => ({ ...message, content: texts[i]! }));
}

/** `POST /v1/messages/batch` on the control plane (secret key; kind "server"). */
export async function controlBatchRoutes(app: ZodApp, deps: GatewayDeps): Promise<void> {
  app.route({
    ...controlBatchOperations.publishBatch,
    onRequest: requireSecretKey(deps),
    bodyLimit: MAX_BATCH_BODY_BYTES,
    handler: async (request) => ({
      results: await publishBatch(
        deps,
        { environmentId: keyAuth(request).environmentId, kind: 'server' },
        withContentText(request.body.messages, request.bodyText),
      ),
    }),
  });
}

/** `POST /v1/messages/batch` on the realtime edge (user token; kind "user", sender the token's user). */
export async function realtimeBatchRoutes(app: ZodApp, deps: GatewayDeps): Promise<void> {
  app.route({
    ...realtimeBatchOperations.publishBatch,
    onRequest: requireUser(deps),
    bodyLimit: MAX_BATCH_BODY_BYTES,
    handler: async (request) => {
      const auth = userAuth(request);
      const caller = {
        environmentId: auth.environmentId,
        kind: 'user' as const,
        user: { id: auth.userId, anon: auth.anon },
        authorize: (channelId: string) => authorize(deps, auth, channelId, 'publish'),
      };
      return { results: await publishBatch(deps, caller, withContentText(request.body.messages, request.bodyText)) };
    },
  });
}
