import { z } from 'zod';
import { IsoTime } from './common.ts';
import { WebhookEventTypeName } from './webhook-events.ts';

export const DeliveryStatus = z
  .enum(['pending', 'delivered', 'dropped', 'cancelled'])
  .describe(
    '`pending`: waiting for its first attempt or a retry; `delivered`: a 2xx came back; `dropped`: the retries ran out ' +
      "(or the receiver answered 410); `cancelled`: its message was retracted (by its sender, a moderator or a user's " +
      'erasure) or deleted with its channel before it was delivered: `lastError` is `message_retracted`, its stored body ' +
      'is redacted and it is never sent again (a manual retry or a recovery refuses or skips it). A delivered delivery of ' +
      'such a message stays `delivered`, its stored body redacted too.',
  );

export const DELIVERY_ID_PATTERN = /^dlv_[0-9a-z]{26}$/;
export const DeliveryId = z.string().regex(DELIVERY_ID_PATTERN, 'must be a delivery id (dlv_…)');

export const WebhookSecretResponse = z
  .object({
    secret: z
      .string()
      .describe(
        '`whsec_` + base64. `service-signature` is keyed with the whole string (UTF-8); the Standard Webhooks ' +
          '`webhook-signature` with the base64-decoded part after `whsec_`.',
      ),
  })
  .meta({ id: 'WebhookSecret' });

export const DeliveriesQuery = z
  .object({
    status: DeliveryStatus.optional().describe('Only deliveries in this state.'),
    endpointId: z
      .string()
      .regex(/^(ep_[0-9a-z]{26}|default)$/, 'must be an endpoint id (ep_…) or default')
      .optional()
      .describe("Only deliveries to this endpoint; `default` for the configuration's webhook URL."),
    limit: z.coerce.number().int().min(1).max(500).optional().describe('Default 50, maximum 500.'),
    cursor: z.string().min(1).max(200).optional().describe('`nextCursor` of the previous page (opaque).'),
  })
  .strict();

export const DeliveryRow = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: WebhookEventTypeName,
    endpointId: z.string().nullable().describe("The endpoint (`ep_…`); null for the default one (the configuration's webhook URL)."),
    channelId: z.string().optional().describe('Absent for an event about no channel.'),
    url: z.string(),
    status: DeliveryStatus,
    attempts: z.number().int(),
    lastError: z.string().optional().describe('At most 1 KiB.'),
    lastStatusCode: z.number().int().optional(),
    nextAttemptAt: IsoTime.optional().describe('A pending delivery: when the next attempt is due.'),
    createdAt: IsoTime,
    updatedAt: IsoTime,
    deliveredAt: IsoTime.optional(),
  })
  .meta({ id: 'WebhookDelivery' });

export const DeliveryList = z
  .object({ data: z.array(DeliveryRow), nextCursor: z.string().nullable().describe('Null on the last page.') })
  .meta({ id: 'WebhookDeliveryList' });

export const DeliveryAttempt = z.object({
  at: IsoTime,
  statusCode: z.number().int().optional(),
  error: z.string().optional(),
  durationMs: z.number().int(),
});

export const DeliveryDetail = DeliveryRow.extend({ attemptLog: z.array(DeliveryAttempt) }).meta({
  id: 'WebhookDeliveryDetail',
});

export const DeliveryParams = z.object({ deliveryId: DeliveryId.describe('The delivery id (`dlv_…`) from the ledger.') }).strict();
