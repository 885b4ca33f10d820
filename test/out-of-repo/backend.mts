/**
 * A tenant's backend outside this repository, on the packed @rtm/server only: it receives
 * webhooks on a local port, deploys a configuration pointing at it, mints a user token, publishes,
 * verifies the delivery the dispatcher makes of that message, and reads the history.
 * test/packages.out-of-repo.test.ts type-checks it (tsc, the package's own .d.ts) and runs the
 * output under plain Node; it prints one JSON line of what it saw.
 *
 * Environment: RTM_CONTROL_URL, RTM_SECRET_KEY, RTM_CHANNEL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import {
  createServerClient,
  parseWebhook,
  ServerError,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  type History,
  type PublishedMessage,
  type UserToken,
  type WebhookEvent,
} from '@rtm/server';

const controlUrl = process.env.RTM_CONTROL_URL!;
const channel = process.env.RTM_CHANNEL!;
const rtm = createServerClient({ url: controlUrl, secretKey: process.env.RTM_SECRET_KEY! });

interface Delivery {
  raw: Buffer;
  signature: string | undefined;
}
const deliveries: Delivery[] = [];
const receiver = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const header = request.headers[WEBHOOK_SIGNATURE_HEADER];
  deliveries.push({ raw: Buffer.concat(chunks), signature: Array.isArray(header) ? header.join(',') : header });
  response.writeHead(200).end();
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const { port } = receiver.address() as AddressInfo;

/** The first delivery, waiting at most `ms`. */
async function firstDelivery(ms: number): Promise<Delivery> {
  const deadline = Date.now() + ms;
  while (deliveries.length === 0) {
    if (Date.now() > deadline) throw new Error(`no webhook delivery within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return deliveries[0]!;
}

await rtm.deployConfig({ webhooks: { url: `http://127.0.0.1:${port}/hook` } });
const secret: string = await rtm.webhookSecret();
const minted: UserToken = await rtm.mintToken({ userId: 'outside-user', ttlSeconds: 600 });
const published: PublishedMessage = await rtm.publish(channel, { content: { text: 'from a backend outside the repository' }, senderId: 'backend' });

const delivery = await firstDelivery(20_000);
const event: WebhookEvent = parseWebhook(delivery.raw, delivery.signature, secret);
const tampered = verifyWebhook(Buffer.concat([delivery.raw, Buffer.from(' ')]), delivery.signature, secret);
const history: History = await rtm.history(channel, { limit: 10 });

let refusal: string | undefined;
try {
  await rtm.publish('not a channel!', { content: {} });
} catch (error) {
  if (error instanceof ServerError && error.code === 'invalid_request') refusal = error.code;
  else throw error;
}

receiver.close();
console.log(
  JSON.stringify({
    token: minted.token,
    userId: minted.userId,
    published: { id: published.id, seq: published.seq },
    event: { id: event.id, type: event.type, channelId: event.channelId, content: event.data.content },
    tamperedVerifies: tampered.ok,
    history: history.messages.map((message) => ({ id: message.id, seq: message.seq, sender: message.sender.id })),
    refusal,
  }),
);
