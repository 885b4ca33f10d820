/**
 * The OpenAPI 3.1 `webhooks` of the document: one entry per event type of the catalogue
 * (libs/schemas/src/webhook-events.ts), the request the service sends to an endpoint: its
 * signature headers and its body with the type's `data`. Code generators make a receiver's types
 * from these.
 */
import { webhookEventCatalogue } from '@rtm/schemas';
import { inlineDefs } from './json-schema.ts';

const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });

const HEADERS = [
  header('webhook-id', 'The event id, the same on every attempt and every endpoint: deduplicate on it.'),
  header('webhook-timestamp', 'Unix seconds of the attempt.'),
  header(
    'webhook-signature',
    'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded ' +
      "part of the endpoint's secret after `whsec_`; during a rotation two, space-separated, the new one first.",
  ),
  header(
    'service-signature',
    '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret string; during a rotation one `v1` per secret.',
  ),
];

/** `webhook.test` → `webhookTest`: the operation id generators name a handler type after. */
const camel = (name: string) => name.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase());

export function webhookDocs(): Record<string, unknown> {
  return Object.fromEntries(
    webhookEventCatalogue().map(({ name, description, schema }) => {
      const data = inlineDefs(schema);
      const channel = ['message.', 'member.', 'channel.', 'presence.'].some((prefix) => name.startsWith(prefix));
      // keyed like a path (the linter holds webhook keys to kebab-case); `type` carries the exact name
      return [
        name.replace(/_/g, '-'),
        {
          post: {
            operationId: `${camel(name)}Event`,
            summary: `The \`${name}\` event`,
            description: `${description} Any 2xx answer acknowledges the delivery; anything else (redirects included) fails the attempt, which is retried.`,
            tags: ['webhook events'],
            security: [],
            parameters: HEADERS,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: [
                      'id',
                      'type',
                      'timestamp',
                      'environmentId',
                      ...(channel && name !== 'member.banned' && name !== 'member.unbanned' ? ['channelId'] : []),
                      'data',
                    ],
                    properties: {
                      id: { type: 'string', description: 'The event id (`webhook-id`).' },
                      type: { type: 'string', const: name },
                      timestamp: { type: 'integer', description: 'Milliseconds since the epoch.' },
                      environmentId: { type: 'string' },
                      ...(channel && { channelId: { type: 'string', description: 'The channel the event is about (absent for an environment-wide ban).' } }),
                      data,
                    },
                  },
                },
              },
            },
            responses: { '200': { description: 'Acknowledged (any 2xx).' } },
          },
        },
      ];
    }),
  );
}
