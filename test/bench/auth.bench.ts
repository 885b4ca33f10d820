/**
 * `npm run bench -- auth`: the credential hot paths on one real gateway at 50 concurrent clients
 * (undici, keep-alive), each for a fixed time after a warm-up:
 *   mint     POST /v1/tokens with a secret key (key lookup cached, HS256 sign);
 *   verify   GET /v1/me with a user token (signing key cached, HS256 verify);
 *   refuse   GET /v1/me with a garbage token (the 401 envelope path).
 * Compare with a bare Fastify JSON POST (~38,900 req/s measured on 2 cores).
 */
import { Pool as HttpPool } from 'undici';
import * as hdr from 'hdr-histogram-js';
import { createEnvironment } from '@rtm/auth';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess, waitReady } from '../helpers/cluster.ts';

const CLIENTS = 50;
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5_000);

const cleanups: (() => Promise<void>)[] = [];
const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
const gateway = await startProcess('gateway', {
  DATABASE_URL: db.url,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  NATS_PREFIX: `b${Date.now().toString(36)}`,
  LOG_LEVEL: 'warn',
});
await waitReady(gateway);
const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'auth' });
const http = new HttpPool(gateway.controlUrl, { connections: CLIENTS, pipelining: 1 });
const realtime = new HttpPool(gateway.realtimeUrl, { connections: CLIENTS, pipelining: 1 });

const mintBody = JSON.stringify({ userId: 'bench-user' });
const minted = await http.request({
  path: '/v1/tokens',
  method: 'POST',
  headers: { authorization: `Bearer ${env.secretKey}`, 'content-type': 'application/json' },
  body: mintBody,
});
const token = ((await minted.body.json()) as { token: string }).token;

type Call = () => Promise<number>;
const cases: [string, number, Call][] = [
  [
    'mint',
    201,
    async () => {
      const res = await http.request({
        path: '/v1/tokens',
        method: 'POST',
        headers: { authorization: `Bearer ${env.secretKey}`, 'content-type': 'application/json' },
        body: mintBody,
      });
      await res.body.dump();
      return res.statusCode;
    },
  ],
  [
    'verify',
    200,
    async () => {
      const res = await realtime.request({ path: '/v1/me', method: 'GET', headers: { authorization: `Bearer ${token}` } });
      await res.body.dump();
      return res.statusCode;
    },
  ],
  [
    'refuse',
    401,
    async () => {
      const res = await realtime.request({ path: '/v1/me', method: 'GET', headers: { authorization: 'Bearer garbage.token.x' } });
      await res.body.dump();
      return res.statusCode;
    },
  ],
];

async function run(call: Call, expected: number, ms: number, histogram?: hdr.Histogram): Promise<{ ok: number; bad: number }> {
  const end = Date.now() + ms;
  let ok = 0;
  let bad = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const started = process.hrtime.bigint();
        const status = await call();
        histogram?.recordValue(Number(process.hrtime.bigint() - started) / 1000);
        if (status === expected) ok++;
        else bad++;
      }
    }),
  );
  return { ok, bad };
}

const rows: string[] = [];
for (const [name, expected, call] of cases) {
  await run(call, expected, WARMUP_MS);
  const histogram = hdr.build();
  const { ok, bad } = await run(call, expected, DURATION_MS, histogram);
  rows.push(
    `| ${name.padEnd(6)} | ${Math.round(ok / (DURATION_MS / 1000))
      .toString()
      .padStart(
        7,
      )} | ${(histogram.getValueAtPercentile(50) / 1000).toFixed(2).padStart(6)} | ${(histogram.getValueAtPercentile(99) / 1000).toFixed(2).padStart(6)} | ${bad} |`,
  );
}
process.stdout.write(
  `${CLIENTS} clients, ${DURATION_MS} ms each\n| case   |   req/s | p50 ms | p99 ms | unexpected |\n|---|---|---|---|---|\n${rows.join('\n')}\n`,
);

await http.close();
await realtime.close();
await gateway.stop();
for (const cleanup of cleanups.reverse()) await cleanup();
process.exit(0);
