/**
 * `npm run bench -- inbox`: notification fan-out. 1,000 users each hold one inbox socket, half
 * on each of two gateways; the control plane sends ROUNDS notifications addressed to all 1,000
 * (one POST each, awaited in turn). Measured: POST latency (insert 1,000 rows + 1,000 bus
 * publishes), time from POST to the last of the 1,000 sockets receiving it, and deliveries/s.
 * The ceiling to compare with (measured on 2 cores): `ws` broadcast of a 300 B frame ~92,000 deliveries/s
 * and a 50-row INSERT transaction ~2,500/s on the 2-core benchmark machine.
 */
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createEnvironment } from '@rtm/auth';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { mintToken, request } from '../helpers/http.ts';

const USERS = 1_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

const cleanups: (() => Promise<void>)[] = [];
const processes: RunningProcess[] = [];
try {
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const env = { DATABASE_URL: db.url, NATS_PREFIX: `b${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'warn' };
  const gateways = await Promise.all([startProcess('gateway', env), startProcess('gateway', env)]);
  processes.push(...gateways);
  await Promise.all(gateways.map((g) => waitReady(g)));
  const tenant = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'inbox' });
  const control = gateways[0]!.controlUrl;

  const users = Array.from({ length: USERS }, (_, i) => `u${i}`);
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i += 50) {
    tokens.push(...(await Promise.all(users.slice(i, i + 50).map((u) => mintToken(control, tenant.secretKey, u)))));
  }
  // per round, how many sockets have seen it and when the last one did
  const seen = new Map<string, { count: number; last: number }>();
  const sockets = await Promise.all(
    tokens.map(
      (token, i) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${gateways[i % 2]!.realtimeUrl.replace('http', 'ws')}/inbox?token=${token}`);
          ws.on('message', (data) => {
            const frame = JSON.parse(String(data)) as { op: string; payload?: { round: string } };
            if (frame.op === 'ready') return resolve(ws);
            if (frame.op !== 'notification' || !frame.payload) return;
            const entry = seen.get(frame.payload.round) ?? { count: 0, last: 0 };
            entry.count++;
            entry.last = performance.now();
            seen.set(frame.payload.round, entry);
          });
          ws.on('error', reject);
        }),
    ),
  );

  const postMs: number[] = [];
  const fanoutMs: number[] = [];
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const key = `r${round}`;
    const t0 = performance.now();
    const res = await request(control, 'POST', '/v1/notifications', {
      token: tenant.secretKey,
      body: { userIds: users, type: 'bench', payload: { round: key, text: 'x'.repeat(200) } },
    });
    if (res.status !== 202) throw new Error(`POST answered ${res.status} ${JSON.stringify(res.body)}`);
    postMs.push(performance.now() - t0);
    for (;;) {
      const entry = seen.get(key);
      if (entry && entry.count === USERS) {
        fanoutMs.push(entry.last - t0);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
  const row = (name: string, values: number[]) =>
    `${name.padEnd(34)} p50 ${pct(values, 0.5).toFixed(1).padStart(7)} ms   p99 ${pct(values, 0.99).toFixed(1).padStart(7)} ms`;
  process.stdout.write(
    [
      `${USERS} inbox sockets on 2 gateways, ${ROUNDS} notifications to all of them (one POST each, in turn)`,
      row('POST /v1/notifications (1,000 users)', postMs),
      row('POST start → last socket has it', fanoutMs),
      `deliveries/s (sequential rounds)     ${Math.round((USERS * ROUNDS) / elapsed).toLocaleString('en')}`,
      '',
    ].join('\n'),
  );
  for (const ws of sockets) ws.terminate();
} finally {
  await Promise.all(processes.map((p) => p.kill()));
  for (const cleanup of cleanups) await cleanup();
}
process.exit(0);
