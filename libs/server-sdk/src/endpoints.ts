/**
 * The webhook endpoints of the environment (beside its default one, the configuration's
 * `webhooks.url`), their secrets, test events and recoveries, the event-type catalogue and the
 * tasks: the methods `createServerClient` adds for them.
 */
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';
import { expect } from './errors.ts';
import type {
  CreateWebhookEndpointInput,
  CreatedWebhookEndpoint,
  UpdateWebhookEndpointInput,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointsQuery,
  WebhookEventTypeList,
  WebhookTask,
  WebhookTestEvent,
  WebhookTestInput,
} from './types.ts';

export interface WebhookEndpointMethods {
  /** Creates an endpoint; the answer carries its `secret` (`whsec_…`). At most 50 per environment. */
  createWebhookEndpoint(input: CreateWebhookEndpointInput): Promise<CreatedWebhookEndpoint>;
  /** One page of the endpoints, oldest first; pass `nextCursor` as `cursor` for the next. */
  webhookEndpoints(query?: WebhookEndpointsQuery): Promise<WebhookEndpointList>;
  /** Every endpoint, page after page. */
  allWebhookEndpoints(): AsyncIterable<WebhookEndpoint>;
  webhookEndpoint(endpointId: string): Promise<WebhookEndpoint>;
  /** Changes the fields given (`null` clears a filter or the rate limit; `disabled: false` enables it again). */
  updateWebhookEndpoint(endpointId: string, change: UpdateWebhookEndpointInput): Promise<WebhookEndpoint>;
  /** Deletes the endpoint and its ledger. */
  deleteWebhookEndpoint(endpointId: string): Promise<void>;
  webhookEndpointSecret(endpointId: string): Promise<string>;
  /** A new secret; the old one still signs for 24 h. */
  rotateWebhookEndpointSecret(endpointId: string): Promise<string>;
  /** Sends the endpoint a `webhook.test` event, or the catalogue's example of `eventType`. */
  testWebhookEndpoint(endpointId: string, input?: WebhookTestInput): Promise<WebhookTestEvent>;
  /** Re-sends the endpoint's deliveries dropped in [since, until); follow the task with `webhookTask`. */
  recoverWebhookEndpoint(endpointId: string, window: { since: string | Date; until?: string | Date }): Promise<{ taskId: string }>;
  webhookTask(taskId: string): Promise<WebhookTask>;
  /** The event types with the JSON Schema of each one's `data`. */
  webhookEventTypes(): Promise<WebhookEventTypeList>;
}

const iso = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

export function webhookEndpointMethods(api: Client<paths>): WebhookEndpointMethods {
  const endpoint = (endpointId: string) => ({ path: { endpointId } });
  return {
    createWebhookEndpoint: (input) => expect(api.POST('/v1/webhook-endpoints', { body: input })),
    webhookEndpoints: (query) => expect(api.GET('/v1/webhook-endpoints', { params: { query } })),
    async *allWebhookEndpoints() {
      let cursor: string | undefined;
      do {
        const page = await expect(api.GET('/v1/webhook-endpoints', { params: { query: { limit: 100, cursor } } }));
        yield* page.data;
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
    },
    webhookEndpoint: (endpointId) => expect(api.GET('/v1/webhook-endpoints/{endpointId}', { params: endpoint(endpointId) })),
    updateWebhookEndpoint: (endpointId, change) => expect(api.PATCH('/v1/webhook-endpoints/{endpointId}', { params: endpoint(endpointId), body: change })),
    deleteWebhookEndpoint: async (endpointId) => {
      await expect(api.DELETE('/v1/webhook-endpoints/{endpointId}', { params: endpoint(endpointId) }));
    },
    webhookEndpointSecret: async (endpointId) => (await expect(api.GET('/v1/webhook-endpoints/{endpointId}/secret', { params: endpoint(endpointId) }))).secret,
    rotateWebhookEndpointSecret: async (endpointId) =>
      (await expect(api.POST('/v1/webhook-endpoints/{endpointId}/secret/rotate', { params: endpoint(endpointId) }))).secret,
    testWebhookEndpoint: (endpointId, input = {}) => expect(api.POST('/v1/webhook-endpoints/{endpointId}/test', { params: endpoint(endpointId), body: input })),
    recoverWebhookEndpoint: (endpointId, window) =>
      expect(
        api.POST('/v1/webhook-endpoints/{endpointId}/recover', {
          params: endpoint(endpointId),
          body: { since: iso(window.since), ...(window.until !== undefined && { until: iso(window.until) }) },
        }),
      ),
    webhookTask: (taskId) => expect(api.GET('/v1/webhook-tasks/{taskId}', { params: { path: { taskId } } })),
    webhookEventTypes: () => expect(api.GET('/v1/webhook-event-types')),
  };
}
