/**
 * The large channel's two onlookers (test/bench/large-channel.bench.ts): an observer connection
 * subscribed with `occupancy: true` before the storm, keeping the last occupancy frame; and the
 * neighbour, another environment publishing to its own channel at a steady rate (open loop),
 * its latency taken per phase.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { Pool as HttpPool } from 'undici';
import { CHANNEL, NEIGHBOUR_CHANNEL, largeHistogram } from './large-channel-options.ts';
import { opOf } from './large-channel-subs.ts';

export interface Occupancy {
  connections: number;
  users: number;
}

/** One more connection, subscribed before the storm with `occupancy: true`; keeps the last occupancy frame. */
export async function observer(url: string): Promise<{ ws: WebSocket; last(): Occupancy | undefined; frames(): number; note: string }> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let last: Occupancy | undefined;
  let frames = 0;
  let note = '';
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`observer closed ${code}`)));
    ws.on('message', (data: Buffer) => {
      const op = opOf(data);
      if (op === 'connected') ws.send(JSON.stringify({ op: 'subscribe', ref: 'occupancy', channelId: CHANNEL, occupancy: true }));
      if (op === 'occupancy') {
        frames++;
        const frame = JSON.parse(data.toString('utf8')) as Occupancy;
        last = { connections: frame.connections, users: frame.users };
      }
      if (op !== 'subscribed' && op !== 'error') return;
      const frame = JSON.parse(data.toString('utf8')) as { ref?: unknown; code?: string; reason?: string };
      if (op === 'subscribed') return resolve();
      if (frame.ref === 'occupancy') {
        // a gateway without the option refuses the field: subscribe without it
        note = `subscribe with occupancy refused: ${frame.code} ${frame.reason ?? ''}`.trim();
        ws.send(JSON.stringify({ op: 'subscribe', ref: 'plain', channelId: CHANNEL }));
      } else reject(new Error(`observer subscribe: ${frame.code} ${frame.reason}`));
    });
  });
  ws.removeAllListeners('close');
  ws.removeAllListeners('error');
  ws.on('error', () => {});
  return { ws, last: () => last, frames: () => frames, note };
}

export interface PublishFigures {
  ok: number;
  failed: Map<string, number>;
  p50: number;
  p99: number;
}

/** Single server publishes at `rate` a second (open loop) to the neighbour's channel; latency per phase. */
export function neighbour(controlUrl: string, secretKey: string, rate: number) {
  const http = new HttpPool(controlUrl, { connections: 8 });
  let current: { h: ReturnType<typeof largeHistogram>; ok: number; failed: Map<string, number> } | undefined;
  const inflight = new Set<Promise<void>>();
  const body = JSON.stringify({ content: { text: 'neighbour message' } });
  const send = () => {
    const phase = current;
    const t0 = performance.now();
    const p = http
      .request({
        method: 'POST',
        path: `/v1/channels/${NEIGHBOUR_CHANNEL}/messages`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
        body,
      })
      .then(async (res) => {
        await res.body.text();
        if (!phase) return;
        if (res.statusCode === 201) {
          phase.ok++;
          phase.h.recordValue(Math.max(1, Math.round((performance.now() - t0) * 1000)));
        } else phase.failed.set(`HTTP ${res.statusCode}`, (phase.failed.get(`HTTP ${res.statusCode}`) ?? 0) + 1);
      })
      .catch((error: Error & { code?: string }) => {
        const key = error.code ?? error.message;
        phase?.failed.set(key, (phase.failed.get(key) ?? 0) + 1);
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };
  const timer = setInterval(send, 1000 / rate);
  return {
    phase(): void {
      current = { h: largeHistogram(), ok: 0, failed: new Map() };
    },
    /** The figures of the phase so far (publishes still in flight count towards the next). */
    take(): PublishFigures {
      const phase = current!;
      current = { h: largeHistogram(), ok: 0, failed: new Map() };
      return { ok: phase.ok, failed: phase.failed, p50: phase.h.getValueAtPercentile(50) / 1000, p99: phase.h.getValueAtPercentile(99) / 1000 };
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await Promise.all(inflight);
      await http.close();
    },
  };
}
