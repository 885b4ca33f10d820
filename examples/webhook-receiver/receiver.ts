/**
 * A reference webhook receiver (Fastify). What every receiver must do, in order:
 * 1. read the body as raw bytes: the signature covers exactly those bytes, and a re-serialised
 *    JSON object would not match;
 * 2. verify `service-signature` with the environment's `whsec_` secret (constant-time, any
 *    matching v1, 5 min tolerance) and answer 401 without processing when it fails;
 * 3. deduplicate on the event `id` (delivery is at-least-once) and answer 2xx for an event it has
 *    already processed, so the service stops retrying it.
 *
 * Run: WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx examples/webhook-receiver/receiver.ts
 * then deploy `{"webhooks": {"url": "http://localhost:4000/webhooks"}}` with PUT /v1/config.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { verifyWebhookSignature, SIGNATURE_HEADER } from '@rtm/webhooks';

export interface WebhookEvent {
  id: string;
  type: 'message.published' | 'message.retracted';
  timestamp: number;
  environmentId: string;
  channelId: string;
  data: Record<string, unknown>;
}

export interface ReceiverOptions {
  secret: string;
  /** Called once per event id. */
  onEvent: (event: WebhookEvent) => Promise<void> | void;
  toleranceSeconds?: number;
  /** How many processed ids to remember (in memory; use a durable store in production). */
  rememberIds?: number;
}

export function buildReceiver(options: ReceiverOptions): FastifyInstance {
  const app = Fastify({ logger: false });
  const seen = new Map<string, true>();
  const limit = options.rememberIds ?? 100_000;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/webhooks', async (request, reply) => {
    const raw = request.body as Buffer | undefined;
    if (!Buffer.isBuffer(raw)) return reply.code(400).send({ error: 'no body' });
    const verdict = verifyWebhookSignature(raw, request.headers[SIGNATURE_HEADER], options.secret, {
      toleranceSeconds: options.toleranceSeconds,
    });
    if (!verdict.ok) return reply.code(401).send({ error: verdict.reason });

    let event: WebhookEvent;
    try {
      event = JSON.parse(raw.toString('utf8')) as WebhookEvent;
    } catch {
      return reply.code(400).send({ error: 'body is not JSON' });
    }
    if (seen.has(event.id)) return reply.code(200).send({ received: true, duplicate: true });
    await options.onEvent(event);
    seen.set(event.id, true);
    if (seen.size > limit) seen.delete(seen.keys().next().value!);
    return reply.code(200).send({ received: true, duplicate: false });
  });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret?.startsWith('whsec_')) {
    process.stderr.write('set WEBHOOK_SECRET to the whsec_… secret from GET /v1/webhooks/secret\n');
    process.exit(64);
  }
  const app = buildReceiver({
    secret,
    onEvent: (event) => {
      process.stdout.write(`${event.type} ${event.id} on ${event.channelId}\n`);
    },
  });
  await app.listen({ port: Number(process.env.PORT ?? 4000), host: '127.0.0.1' });
}
