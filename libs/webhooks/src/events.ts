/**
 * Events other than a message's: written by the change they report, in its transaction (the
 * outbox rule), through the same enqueue as messages, so each endpoint whose filters match gets
 * its own delivery. `recordEvent` is what membership, bans, deletion and erasure call;
 * `sendTestEvent` is the endpoint's test.
 */
import { newId, withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@rtm/schemas';
import { recordWebhookEvents } from './enqueue.ts';
import { getEndpoint, type EndpointAudit } from './endpoints.ts';

/**
 * Records one event of `type` (its `data` as a JSON value) for every endpoint of the environment
 * that takes it, on the caller's transaction; `channelId` null for an event about no channel.
 * Returns the delivery ids (none when no endpoint takes it).
 */
export function recordEvent(
  client: PoolClient,
  event: { environmentId: string; type: WebhookEventType; channelId: string | null; data: unknown; only?: string; except?: string },
): Promise<string[]> {
  return recordWebhookEvents(client, [
    {
      environmentId: event.environmentId,
      channelId: event.channelId,
      eventId: newId('evt'),
      type: event.type,
      timestamp: Date.now(),
      data: JSON.stringify(event.data),
      ...(event.only !== undefined && { only: event.only }),
      ...(event.except !== undefined && { except: event.except }),
    },
  ]);
}

/**
 * Sends the endpoint a `webhook.test` event, or the example of `eventType` from the catalogue,
 * through the normal path (a delivery in its ledger, signed, retried). 404 for an unknown
 * endpoint, 400 for a disabled one.
 */
export async function sendTestEvent(
  pool: Pool,
  environmentId: string,
  endpointId: string,
  eventType: WebhookEventType = 'webhook.test',
  audit: EndpointAudit = async () => {},
): Promise<{ eventType: WebhookEventType; deliveryId: string }> {
  return withTransaction(pool, async (client) => {
    const endpoint = await getEndpoint(client, environmentId, endpointId);
    if (endpoint.disabled) throw new ServiceError('invalid_request', 'the endpoint is disabled; enable it (PATCH {"disabled": false}) first');
    const data = eventType === 'webhook.test' ? { endpointId, message: 'a test event' } : WEBHOOK_EVENT_TYPES[eventType].example;
    const channelId =
      typeof (data as { channelId?: unknown }).channelId === 'string'
        ? (data as { channelId: string }).channelId
        : eventType.startsWith('message.')
          ? 'example-channel'
          : null;
    const [deliveryId] = await recordEvent(client, { environmentId, type: eventType, channelId, data, only: endpointId });
    await audit(client, endpoint);
    return { eventType, deliveryId: deliveryId! };
  });
}
