/**
 * Webhook endpoints as both hosts serve them (routes/webhook-endpoints.ts with the secret key,
 * routes/dashboard/webhook-endpoints.ts for a session): pages with an opaque cursor, and the URL of
 * a new or changed endpoint held to the webhook URL policy. The queries are libs/webhooks'
 * (endpoints.ts).
 */
import { listEndpoints } from '@rtm/webhooks';
import { ENDPOINT_ID_PATTERN, webhookEventCatalogue } from '@rtm/schemas';
import type { GatewayDeps } from '../deps.ts';
import { checkedWebhookUrl } from '../config/deploy.ts';
import { decodeCursor, encodeCursor } from '../http/list-cursor.ts';

// the cursor is the last endpoint's id (list-cursor.ts)
const isEndpointId = (id: string) => ENDPOINT_ID_PATTERN.test(id);

/** The event-type catalogue, built once per process (it is the same for every request). */
export const EVENT_TYPE_CATALOGUE = { data: webhookEventCatalogue() };

/** Oldest first; `cursor` is the previous page's `nextCursor`. */
export async function listEndpointPage(deps: Pick<GatewayDeps, 'pool'>, environmentId: string, query: { limit?: number; cursor?: string }) {
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, isEndpointId);
  const { data, more } = await listEndpoints(deps.pool, environmentId, { after, limit: query.limit ?? 50 });
  return { data, nextCursor: more ? encodeCursor(data[data.length - 1]!.id) : null };
}

/** A create or change body with its URL (when it names one) in stored form; 422 `invalid_webhook_url` for one the policy refuses. */
export function withCheckedUrl<Body extends { url?: string | undefined }>(deps: Pick<GatewayDeps, 'config'>, body: Body): Body {
  return body.url === undefined ? body : { ...body, url: checkedWebhookUrl(deps, body.url, 'invalid_webhook_url') };
}
