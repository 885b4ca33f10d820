/**
 * Webhook endpoints (control plane, secret key): the bodies, answers and parameters of
 * /v1/webhook-endpoints, /v1/webhook-event-types and /v1/webhook-tasks.
 */
import { z } from 'zod';
import { IsoTime } from './common.ts';
import { WebhookEventTypeName } from './webhook-events.ts';

export const ENDPOINT_ID_PATTERN = /^ep_[0-9a-z]{26}$/;
export const TASK_ID_PATTERN = /^wtk_[0-9a-z]{26}$/;
export const MAX_ENDPOINT_CHANNEL_PATTERNS = 100;

/** An exact channel id, a prefix ending in `*`, or `*` (as in token capabilities). */
export const ChannelPattern = z
  .string()
  .min(1)
  .max(129)
  .regex(/^(\*|[A-Za-z0-9_.:@=-]{1,128}\*?)$/, 'must be a channel id, a prefix ending in *, or *');

const EventTypes = z
  .array(WebhookEventTypeName)
  .min(1)
  .max(50)
  .nullable()
  .describe(
    'Only these event types (GET /v1/webhook-event-types lists them). Omitted or null: every type, except those the ' +
      'catalogue marks `optIn` (the presence-driven `channel.*` and `presence.*` events), which must be named.',
  );
const Channels = z
  .array(ChannelPattern)
  .min(1)
  .max(MAX_ENDPOINT_CHANNEL_PATTERNS)
  .nullable()
  .describe(
    `Only events of channels matching one of these patterns (an exact id, \`prefix*\` or \`*\`; at most ${MAX_ENDPOINT_CHANNEL_PATTERNS}). ` +
      'Events about no channel (`user.messages_erased`, `webhook.test`, the operational ones) pass. Omitted or null: every channel.',
  );
const RateLimit = z
  .number()
  .int()
  .min(1)
  .max(10_000)
  .nullable()
  .describe(
    'At most this many attempts per second to this endpoint, cluster-wide; deliveries held back wait (they are not attempts). Null: no limit of its own.',
  );
const Description = z.string().max(500);

export const CreateWebhookEndpointBody = z
  .object({
    url: z.string().min(1).max(2048).describe("Checked as the configuration's webhook URL is (422 `invalid_webhook_url`)."),
    description: Description.optional(),
    eventTypes: EventTypes.optional(),
    channels: Channels.optional(),
    disabled: z.boolean().optional().describe('Create it disabled (it gets nothing until enabled).'),
    rateLimitPerSecond: RateLimit.optional(),
  })
  .strict();

export const UpdateWebhookEndpointBody = CreateWebhookEndpointBody.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'name at least one field to change');

export const WebhookEndpoint = z
  .object({
    id: z.string().describe('`ep_…`'),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()).nullable().describe('null: every event type but the `optIn` ones.'),
    channels: z.array(z.string()).nullable().describe('null: every channel.'),
    disabled: z.boolean(),
    disabledReason: z.enum(['manual', 'failing']).optional().describe('`failing`: disabled after failing for WEBHOOK_DISABLE_AFTER.'),
    disabledAt: IsoTime.optional(),
    rateLimitPerSecond: z.number().int().nullable(),
    failingSince: IsoTime.optional().describe('When its attempts started failing (none has succeeded since).'),
    createdAt: IsoTime,
    updatedAt: IsoTime,
  })
  .meta({ id: 'WebhookEndpoint' });

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().describe('`whsec_` + base64: the signing secret of this endpoint (also at GET …/{endpointId}/secret).'),
}).meta({ id: 'CreatedWebhookEndpoint' });

export const WebhookEndpointList = z
  .object({ data: z.array(WebhookEndpoint), nextCursor: z.string().nullable().describe('Null on the last page.') })
  .meta({ id: 'WebhookEndpointList' });

export const WebhookEndpointsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional().describe('Default 50, maximum 100.'),
    cursor: z.string().min(1).max(200).optional().describe('`nextCursor` of the previous page (opaque).'),
  })
  .strict();

export const EndpointId = z.string().regex(ENDPOINT_ID_PATTERN, 'must be a webhook endpoint id (ep_…)');
export const WebhookEndpointParams = z.object({ endpointId: EndpointId.describe('The endpoint (`ep_…`).') }).strict();

export const TestEventBody = z
  .object({ eventType: WebhookEventTypeName.optional().describe("Send the catalogue's example of this type instead of `webhook.test`.") })
  .strict();
export const TestEventResponse = z
  .object({ eventType: z.string(), deliveryId: z.string().describe('The delivery in the ledger (`GET /v1/webhooks/deliveries/{deliveryId}`).') })
  .meta({ id: 'WebhookTestEvent' });

export const RecoverBody = z
  .object({
    since: IsoTime.describe('Re-send the deliveries dropped that were created at or after this time…'),
    until: IsoTime.optional().describe('…and before this one (default: now).'),
  })
  .strict();

export const WebhookTask = z
  .object({
    id: z.string().describe('`wtk_…`'),
    kind: z.literal('recover'),
    endpointId: z.string(),
    since: IsoTime,
    until: IsoTime.nullable(),
    status: z.enum(['running', 'completed', 'failed']),
    recovered: z.number().int().describe('Dropped deliveries queued again so far.'),
    error: z.string().optional(),
    createdAt: IsoTime,
    finishedAt: IsoTime.optional(),
  })
  .meta({ id: 'WebhookTask' });
export const WebhookTaskAccepted = z.object({ taskId: z.string() }).meta({ id: 'WebhookTaskAccepted' });
export const WebhookTaskParams = z
  .object({ taskId: z.string().regex(TASK_ID_PATTERN, 'must be a webhook task id (wtk_…)').describe('The task (`wtk_…`) from the 202 that started it.') })
  .strict();

export const WebhookEventTypeList = z
  .object({
    data: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        optIn: z.boolean().describe('Sent only to endpoints whose `eventTypes` name it: an endpoint without a type filter does not get it.'),
        schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the event's `data`."),
        example: z.unknown().describe('An example `data`.'),
      }),
    ),
  })
  .meta({ id: 'WebhookEventTypeList' });
