/**
 * The fairness benchmark's webhook case (test/bench/fairness.bench.ts): a receiver recording when
 * each event arrived, and B's publish → webhook latency at a steady rate, split at the publish's
 * answer.
 */
import { createServer, type Server } from 'node:http';
import { Pool as HttpPool } from 'undici';
import type { RunningProcess } from '../../helpers/cluster.ts';
import { sleep } from './figures.ts';
import { DURATION_MS } from './fairness-options.ts';
import { fairHistogram, line, type Figures } from './fairness-probes.ts';

/** A webhook receiver that records arrival times of event ids. */
export async function receiver(): Promise<{ url: string; server: Server; arrived: Map<string, number> }> {
  const arrived = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: string } };
        if (event.data?.id && !arrived.has(event.data.id)) arrived.set(event.data.id, Date.now());
      } catch {
        // not ours
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return { url: `http://localhost:${port}/hook`, server, arrived };
}

/** B publishes at `rate`/s for the duration; returns publish → webhook arrival latencies. */
export async function webhookLatency(name: string, gateway: RunningProcess, secretKey: string, arrived: Map<string, number>, rate: number): Promise<Figures> {
  const http = new HttpPool(gateway.controlUrl, { connections: 4 });
  const sent = new Map<string, number>();
  /** When each publish was answered 201: arrival − answer is the webhook's own part. */
  const answered = new Map<string, number>();
  let errors = 0;
  const end = Date.now() + DURATION_MS;
  const inflight: Promise<void>[] = [];
  while (Date.now() < end) {
    const t0 = Date.now();
    inflight.push(
      http
        .request({
          method: 'POST',
          path: `/v1/channels/hooked-${Math.floor(Math.random() * 20)}/messages`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
          body: JSON.stringify({ content: { t: t0 } }),
        })
        .then(async (res) => {
          const body = (await res.body.json()) as { id?: string };
          if (res.statusCode === 201 && body.id) {
            sent.set(body.id, t0);
            answered.set(body.id, Date.now());
          } else errors++;
        })
        .catch(() => void errors++),
    );
    await sleep(1000 / rate);
  }
  await Promise.all(inflight);
  const deadline = Date.now() + 30_000;
  while ([...sent.keys()].some((id) => !arrived.has(id)) && Date.now() < deadline) await sleep(100);
  await http.close();
  const h = fairHistogram();
  const publish = fairHistogram();
  const after = fairHistogram();
  let missing = 0;
  for (const [id, t0] of sent) {
    const at = arrived.get(id);
    if (at === undefined) missing++;
    else {
      h.recordValue(Math.max(1, (at - t0) * 1000));
      publish.recordValue(Math.max(1, (answered.get(id)! - t0) * 1000));
      after.recordValue(Math.max(1, (at - answered.get(id)!) * 1000));
    }
  }
  const figures = {
    n: sent.size - missing,
    errors: errors + missing,
    perSecond: rate,
    p50: h.getValueAtPercentile(50) / 1000,
    p99: h.getValueAtPercentile(99) / 1000,
  };
  line(name, figures);
  // where the tail is: the publish itself (gateway, channel-node, commit) or the webhook's part
  // after the answer (notice, claim, send); arrival may precede the answer by a little
  process.stdout.write(
    `  of which publish → 201 p50 / p99 ${publish.getValueAtPercentile(50) / 1000} / ${publish.getValueAtPercentile(99) / 1000} ms; ` +
      `201 → webhook p50 / p99 ${after.getValueAtPercentile(50) / 1000} / ${after.getValueAtPercentile(99) / 1000} ms\n`,
  );
  return figures;
}
