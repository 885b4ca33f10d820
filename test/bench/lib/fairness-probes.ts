/**
 * What the fairness benchmark measures B (the quiet tenant) with (test/bench/fairness.bench.ts):
 * publishing loops, sockets, a subscribe-and-unsubscribe loop timing each `subscribed`, and a
 * publish → frame probe; each measures only between `measure()` and `stop()`.
 */
import { Pool as HttpPool } from 'undici';
import WebSocket from 'ws';
import type { RunningProcess } from '../../helpers/cluster.ts';
import { histogram, sleep } from './figures.ts';
import { QUIET_PAUSE_MS } from './fairness-options.ts';

export interface Figures {
  n: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export const fairHistogram = () => histogram(120_000_000);

/** One publish to `channelId`, timed from `t0` to its answer read in full (µs); status 0 when it failed in transport. */
async function timedPublish(
  http: HttpPool,
  secretKey: string,
  channelId: string,
  body: string,
  t0 = process.hrtime.bigint(),
): Promise<{ status: number; micros: number }> {
  try {
    const res = await http.request({
      method: 'POST',
      path: `/v1/channels/${channelId}/messages`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
      body,
    });
    await res.body.text();
    return { status: res.statusCode, micros: Number(process.hrtime.bigint() - t0) / 1000 };
  } catch {
    return { status: 0, micros: 0 };
  }
}

/**
 * A probe's window: its loop runs until `end()`, and counts only while `measuring` (from
 * `measure()` to `end()`); `end()` gives the window's length in seconds.
 */
class Window {
  measuring = false;
  stopped = false;
  private startedAt = 0;

  measure(): void {
    this.measuring = true;
    this.startedAt = Date.now();
  }

  end(): number {
    this.measuring = false;
    this.stopped = true;
    return (Date.now() - this.startedAt) / 1000;
  }
}

/** Publishes from `clients` loops until `stop()`; latency recorded while `measuring`. */
export function publisher(url: string, secretKey: string, clients: number, channelOf: () => string, pauseMs: number) {
  const http = new HttpPool(url, { connections: clients });
  const h = fairHistogram();
  let ok = 0;
  let errors = 0;
  const window = new Window();
  const body = JSON.stringify({ content: { text: 'fairness benchmark message', n: 1 } });
  const loops = Array.from({ length: clients }, async () => {
    while (!window.stopped) {
      const { status, micros } = await timedPublish(http, secretKey, channelOf(), body);
      if (window.measuring) {
        if (status === 201) {
          ok++;
          h.recordValue(micros);
        } else errors++;
      }
      if (pauseMs > 0) await sleep(pauseMs);
    }
  });
  return {
    measure: () => window.measure(),
    async stop(): Promise<Figures> {
      const elapsed = window.end();
      await Promise.all(loops);
      await http.close();
      return { n: ok, errors, perSecond: Math.round(ok / elapsed), p50: h.getValueAtPercentile(50) / 1000, p99: h.getValueAtPercentile(99) / 1000 };
    },
  };
}

/** One phase's figures on one line. */
export function line(name: string, f: Figures): void {
  process.stdout.write(
    `${name.padEnd(52)} ${String(f.perSecond).padStart(6)} msg/s   p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   errors ${f.errors}\n`,
  );
}

type OnFrame = (frame: Record<string, unknown>) => void;

/** A socket to `path` of the realtime listener, resolved once a frame of op `readyOp` arrives; other frames go to `onFrame`. */
function socketReadyOn(realtimeUrl: string, path: string, readyOp: string, onFrame: OnFrame): Promise<WebSocket> {
  const ws = new WebSocket(`${realtimeUrl.replace(/^http/, 'ws')}${path}`);
  return new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame.op === readyOp) resolve(ws);
      else onFrame(frame);
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`closed ${code} before ${readyOp}`)));
  });
}

/** A `/v1/connect` connection, resolved once `connected`; frames go to `onFrame`. */
export const connectSocket = (realtimeUrl: string, token: string, onFrame: OnFrame): Promise<WebSocket> =>
  socketReadyOn(realtimeUrl, `/v1/connect?token=${token}`, 'connected', onFrame);

/** A channel socket, resolved once `ready`; later frames go to `onFrame`. */
export const channelSocket = (realtimeUrl: string, channelId: string, token: string, onFrame: OnFrame = () => {}): Promise<WebSocket> =>
  socketReadyOn(realtimeUrl, `/v1/channels/${channelId}?token=${token}`, 'ready', onFrame);

export function figuresOf(h: ReturnType<typeof fairHistogram>, n: number, errors: number, seconds: number): Figures {
  return { n, errors, perSecond: Math.round(n / seconds), p50: h.getValueAtPercentile(50) / 1000, p99: h.getValueAtPercentile(99) / 1000 };
}

/** B subscribes and unsubscribes one channel at a time (pausing between), timing subscribe → `subscribed`. */
export async function subscriber(realtimeUrl: string, token: string) {
  const h = fairHistogram();
  let n = 0;
  let errors = 0;
  let waiting: ((frame: Record<string, unknown>) => void) | undefined;
  const ws = await connectSocket(realtimeUrl, token, (frame) => {
    if (frame.ref !== undefined && (frame.op === 'subscribed' || frame.op === 'error')) waiting?.(frame);
  });
  const window = new Window();
  const loop = (async () => {
    for (let i = 0; !window.stopped; i++) {
      const channelId = `b-sub-${i % 50}`;
      const t0 = process.hrtime.bigint();
      const answer = await new Promise<Record<string, unknown>>((resolve) => {
        waiting = resolve;
        ws.send(JSON.stringify({ op: 'subscribe', ref: i, channelId }));
      });
      if (window.measuring) {
        if (answer.op === 'subscribed') {
          n++;
          h.recordValue(Number(process.hrtime.bigint() - t0) / 1000);
        } else errors++;
      }
      ws.send(JSON.stringify({ op: 'unsubscribe', ref: `u${i}`, channelId }));
      await sleep(QUIET_PAUSE_MS * 2);
    }
  })();
  return {
    measure: () => window.measure(),
    async stop(): Promise<Figures> {
      const seconds = window.end();
      await loop;
      ws.close();
      return figuresOf(h, n, errors, seconds);
    },
  };
}

/** B publishes to its own channel and reads it on a channel socket: publish → frame latency. */
export async function publishToFrame(gateway: RunningProcess, secretKey: string, token: string, channelId: string) {
  const sent = new Map<number, bigint>();
  const frame = fairHistogram();
  let frames = 0;
  const ws = await channelSocket(gateway.realtimeUrl, channelId, token, (f) => {
    const n = (f.content as { n?: unknown } | undefined)?.n;
    if (typeof n !== 'number') return;
    const t0 = sent.get(n);
    if (t0 === undefined) return;
    sent.delete(n);
    frames++;
    frame.recordValue(Number(process.hrtime.bigint() - t0) / 1000);
  });
  const http = new HttpPool(gateway.controlUrl, { connections: 2 });
  const publish = fairHistogram();
  let published = 0;
  let errors = 0;
  const window = new Window();
  const loop = (async () => {
    for (let n = 1; !window.stopped; n++) {
      const t0 = process.hrtime.bigint();
      if (window.measuring) sent.set(n, t0);
      const { status, micros } = await timedPublish(http, secretKey, channelId, JSON.stringify({ content: { n } }), t0);
      if (window.measuring) {
        if (status === 201) {
          published++;
          publish.recordValue(micros);
        } else errors++;
      }
      await sleep(QUIET_PAUSE_MS * 2);
    }
  })();
  return {
    measure: () => window.measure(),
    async stop(): Promise<{ publish: Figures; frame: Figures }> {
      const seconds = window.end();
      await loop;
      const deadline = Date.now() + 10_000;
      while (sent.size > 0 && Date.now() < deadline) await sleep(50);
      ws.close();
      await http.close();
      return { publish: figuresOf(publish, published, errors, seconds), frame: figuresOf(frame, frames, sent.size, seconds) };
    },
  };
}
