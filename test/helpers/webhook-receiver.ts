import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { withTransaction, type Pool } from '@rtm/db';
import { enqueueWebhookEvents, type WebhookEventInput } from '@rtm/webhooks';

export interface ReceivedWebhook {
  /** The exact bytes received. */
  raw: Buffer;
  headers: IncomingHttpHeaders;
  path: string;
  /** Date.now() when the request arrived. */
  at: number;
  /** 1-based count of requests this receiver has seen. */
  n: number;
}

/** What to answer: a status, or `hang` (never answer; the sender times out). */
export type Behaviour = (request: ReceivedWebhook) => { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  behaviour: Behaviour;
  /** Resolves when `predicate` holds for the requests received so far. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, label?: string): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback (port 0 unless given), closed when the test ends. */
export async function startReceiver(t: TestContext, behaviour: Behaviour = () => ({ status: 200 }), port = 0): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    behaviour,
    waitFor(predicate, label = 'condition') {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(received)) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
        t.signal?.addEventListener('abort', () => reject(new Error(`test ended waiting for ${label}`)));
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: ReceivedWebhook = {
        raw: Buffer.concat(chunks),
        headers: req.headers,
        path: req.url ?? '/',
        at: Date.now(),
        n: received.length + 1,
      };
      received.push(entry);
      for (const waiter of [...waiters]) waiter();
      const answer = receiver.behaviour(entry);
      if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.status >= 300 ? `answer ${answer.status}` : 'ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  t.after(() => receiver.close().catch(() => {}));
  return receiver;
}

/** A loopback port with nothing listening on it (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let seq = 0;

/** A `message.published` event for a fresh message id. */
export function publishedEvent(environmentId: string, channelId = 'room-1', content: object = { text: 'hi' }): WebhookEventInput {
  const id = `msg_${Date.now().toString(36)}${(++seq).toString().padStart(8, '0')}`;
  const timestamp = Date.now();
  return {
    environmentId,
    channelId,
    eventId: id,
    type: 'message.published',
    timestamp,
    data: JSON.stringify({
      id,
      seq,
      type: 'message',
      kind: 'server',
      content,
      sender: { id: 'server', anon: false },
      timestamp,
      retracted: false,
      ephemeral: false,
    }),
  };
}

/** Records deliveries for `events` through the real enqueue path, in batches of `batch` per transaction. */
export async function enqueue(pool: Pool, events: WebhookEventInput[], batch = 50): Promise<number> {
  let total = 0;
  for (let i = 0; i < events.length; i += batch) {
    total += await withTransaction(pool, (client) => enqueueWebhookEvents(client, events.slice(i, i + batch)));
  }
  return total;
}

/** The shared wait with a deadline (helpers/eventually.ts), for the webhook tests that import it from here. */
export { eventually } from './eventually.ts';

/**
 * How many of an environment's deliveries are recorded `delivered` (with exactly `attempts`
 * attempts, when given): ledger rows, and deliveries of the delivery log with an outcome and no
 * ledger row (delivered at their first attempt).
 */
export async function deliveredCount(pool: Pool, environmentId: string, attempts?: number): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select (select count(*)::int from webhook_deliveries
             where environment_id = $1 and status = 'delivered' and ($2::int is null or attempts = $2))
          + (select count(*)::int from webhook_outcomes o
             where o.environment_id = $1 and ($2::int is null or $2 = 1)
               and not exists (select 1 from webhook_deliveries d where d.id = o.delivery_id)) as n`,
    [environmentId, attempts ?? null],
  );
  return rows[0]!.n;
}
