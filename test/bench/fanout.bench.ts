/**
 * `npm run bench -- fanout`: socket fan-out, 1 publisher and 1,000 subscribers on one channel,
 * against a bare `ws` broadcast measured in the same run:
 *   bare-ws   a child process with an HTTP POST that sends the body, serialised once, to every
 *             connected `ws` socket (the ceiling of `ws` on this machine);
 *   rtm       POST /v1/channels/{id}/messages on a real gateway + channel-node, 1,000 channel
 *             sockets on the gateway (persisted publish, NATS, the gateway's feed).
 * The publisher keeps WINDOW publishes in flight; throughput = deliveries / (last delivery −
 * first publish). Delivery latency (publish sent → frame received) is sampled on every 50th socket.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { Pool as HttpPool } from 'undici';
import { createEnvironment } from '@rtm/auth';
import { createTestDatabase } from '../helpers/database.ts';
import { mintToken } from '../helpers/http.ts';
import type { RunningProcess } from '../helpers/cluster.ts';
import { announceListening, spawnListening } from './lib/child-server.ts';
import { startGatewayAndNode } from './lib/services.ts';
import { histogram } from './lib/figures.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);
const WINDOW = 8;
const SAMPLE_EVERY = 50;
const SELF = fileURLToPath(import.meta.url);

function serveBareWs(): void {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      for (const client of wss.clients) client.send(text);
      response.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const wss = new WebSocketServer({ server });
  server.listen(0, '127.0.0.1', () => announceListening(server.address()));
}

async function startBareWs(): Promise<{ url: string; child: ChildProcess }> {
  const { port, child } = await spawnListening('bare ws', ['--import', 'tsx', SELF, '--serve']);
  return { url: `http://127.0.0.1:${port}`, child };
}

interface Result {
  name: string;
  deliveries: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function run(
  name: string,
  socketUrl: string,
  publishUrl: string,
  publishPath: string,
  headers: Record<string, string>,
  isMessage: (text: string) => boolean,
  sentAtOf: (frame: any) => number,
): Promise<Result> {
  const latency = histogram(600_000_000);
  const expected = SUBSCRIBERS * MESSAGES;
  let deliveries = 0;
  let lastAt = 0;
  let done: () => void = () => {};
  const allDelivered = new Promise<void>((resolve) => (done = resolve));
  const sockets: WebSocket[] = [];
  await Promise.all(
    Array.from({ length: SUBSCRIBERS }, (_, i) => {
      const ws = new WebSocket(socketUrl);
      sockets.push(ws);
      const sample = i % SAMPLE_EVERY === 0;
      return new Promise<void>((resolve, reject) => {
        let ready = !socketUrl.includes('/v1/channels/');
        ws.on('open', () => {
          if (ready) resolve();
        });
        ws.on('error', reject);
        ws.on('message', (data) => {
          const text = data.toString();
          if (!ready) {
            if (text.includes('"op":"ready"')) {
              ready = true;
              resolve();
            }
            return;
          }
          if (!isMessage(text)) return;
          deliveries++;
          if (sample) latency.recordValue(Math.max(1, (Date.now() - sentAtOf(JSON.parse(text))) * 1000));
          if (deliveries === expected) {
            lastAt = Date.now();
            done();
          }
        });
      });
    }),
  );
  const http = new HttpPool(publishUrl, { connections: WINDOW });
  const startedAt = Date.now();
  let next = 0;
  const publisher = async () => {
    while (next < MESSAGES) {
      next++;
      const res = await http.request({
        method: 'POST',
        path: publishPath,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ content: { sentAt: Date.now(), text: 'fan-out benchmark message of a typical chat size' } }),
      });
      await res.body.text();
      if (res.statusCode !== 201) throw new Error(`${name}: publish answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, publisher));
  const timeout = setTimeout(done, 120_000);
  await allDelivered;
  clearTimeout(timeout);
  const elapsed = ((lastAt || Date.now()) - startedAt) / 1000;
  for (const ws of sockets) ws.terminate();
  await http.close();
  const result = {
    name,
    deliveries,
    perSecond: Math.round(deliveries / elapsed),
    p50: latency.getValueAtPercentile(50) / 1000,
    p99: latency.getValueAtPercentile(99) / 1000,
  };
  process.stdout.write(
    `${name.padEnd(34)} ${String(result.perSecond).padStart(8)} deliveries/s   p50 ${result.p50.toFixed(1).padStart(7)} ms   ` +
      `p99 ${result.p99.toFixed(1).padStart(7)} ms   delivered ${deliveries}/${expected}\n`,
  );
  return result;
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const processes: RunningProcess[] = [];
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'fanout' });
    const common = { DATABASE_URL: db.url, NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', NATS_PREFIX: `bench${process.pid}` };
    const [gateway] = await startGatewayAndNode(processes, common, common);
    bare = await startBareWs();
    const token = await mintToken(gateway.controlUrl, env.secretKey, 'subscriber');
    process.stdout.write(`fan-out: 1 publisher (${WINDOW} in flight), ${SUBSCRIBERS} subscribers, ${MESSAGES} messages\n`);
    const baseline = await run(
      'bare ws broadcast',
      bare.url.replace('http', 'ws'),
      bare.url,
      '/publish',
      {},
      () => true,
      (frame) => frame.content.sentAt,
    );
    const rtm = await run(
      'rtm channel socket',
      `${gateway.realtimeUrl.replace('http', 'ws')}/v1/channels/fan?token=${token}`,
      gateway.controlUrl,
      '/v1/channels/fan/messages',
      { authorization: `Bearer ${env.secretKey}` },
      (text) => !text.startsWith('{"op"'),
      (frame) => frame.content.sentAt,
    );
    process.stdout.write(`\nratio: rtm / bare ws = ${(rtm.perSecond / Math.max(1, baseline.perSecond)).toFixed(2)}\n`);
  } finally {
    bare?.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.kill()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

if (process.argv.includes('--serve')) {
  serveBareWs();
} else {
  await main();
  process.exit(0);
}
