/**
 * The publish benchmark's latency case (test/bench/publish.bench.ts): publish → socket frame at a
 * fixed rate, open loop, with the tail's parts (publish → 201, the generator's own lateness and
 * event-loop delay, each service's pauses).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool as HttpPool } from 'undici';
import type * as hdr from 'hdr-histogram-js';
import WebSocket from 'ws';
import type { RunningProcess } from '../../helpers/cluster.ts';
import { mintToken } from '../../helpers/http.ts';
import { describePauses, pausesWindow } from '../process-pauses.ts';
import { CLIENTS } from './publish-load.ts';
import { histogram } from './figures.ts';

export const LATENCY_CHANNELS = 100;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 6_000);

const LATENCY_WARMUP_MS = 3_000;

/**
 * Calls `send(n)` for n = 0, 1, … at `rate` a second for `ms` (open loop: on schedule, whether or
 * not earlier calls finished), recording in `lateness` how late each left; waits for every call.
 * The number of calls.
 */
async function openLoop(rate: number, ms: number, send: (n: number) => Promise<void>, lateness?: hdr.Histogram): Promise<number> {
  const started = performance.now();
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  while (performance.now() - started < ms) {
    const now = performance.now();
    const due = Math.floor(((now - started) / 1000) * rate);
    for (; sent < due; sent++) {
      // when call `sent` was due: the generator's own lateness, apart from the service's
      lateness?.recordValue(Math.max(1, (now - started - (sent / rate) * 1000) * 1000));
      const p = send(sent).catch(() => {});
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  return sent;
}

/** A `--trace-gc` line's collector and pause: `… ms: Scavenge 8.2 (9.6) -> 7.5 (10.6) MB, 0.72 / 0.00 ms …`. */
const GC_TRACE = /ms: (Scavenge|Mark-Compact|Mark-Compact \(reduce\)|Minor Mark-Sweep|Mark-Sweep)\b.*?MB, ([\d.]+) \/ [\d.]+ ms/;

/**
 * The pauses a service's `--trace-gc` lines (BENCH_TRACE_GC=1) show in the window, by collector:
 * count, longest and total; empty when it was not traced.
 */
export function describeGcTrace(lines: readonly string[]): string {
  const by = new Map<string, number[]>();
  for (const line of lines) {
    const match = GC_TRACE.exec(line);
    if (!match) continue;
    const list = by.get(match[1]!) ?? [];
    list.push(Number(match[2]));
    by.set(match[1]!, list);
  }
  if (by.size === 0) return '';
  const parts = [...by].map(([kind, pauses]) => {
    const total = pauses.reduce((a, b) => a + b, 0);
    return `${kind} ${pauses.length}× max ${Math.max(...pauses).toFixed(1)} ms, total ${total.toFixed(0)} ms`;
  });
  return `; traced GC: ${parts.join(', ')}`;
}

/**
 * Publish → socket frame latency at a fixed rate (open loop: requests leave on schedule whether
 * or not earlier ones were answered, so queueing shows): 100 channels, one channel socket
 * subscribed to each, publishes spread over them at `rate` per second for LATENCY_MS; every
 * frame's latency is recorded (publish sent → frame received on its socket).
 */
export async function latencyAt(
  rate: number,
  controlUrl: string,
  realtimeUrl: string,
  secretKey: string,
  services: readonly RunningProcess[],
  token: (userId: string) => Promise<string> = (userId) => mintToken(controlUrl, secretKey, userId),
): Promise<{ p50: number; p99: number; frames: number; sent: number; tail: string }> {
  const frameLatency = histogram(60_000_000);
  // the tail's parts: publish → 201, how late the generator sent each request, and the
  // generator's own event-loop delay (frames wait in it before they are timed)
  const answered = histogram(60_000_000);
  const lateness = histogram(60_000_000);
  const generatorLoop = monitorEventLoopDelay({ resolution: 1 });
  const sentAt = new Map<number, bigint>();
  let frames = 0;
  const sockets = await Promise.all(
    Array.from({ length: LATENCY_CHANNELS }, async (_, i) => {
      const ws = new WebSocket(`${realtimeUrl.replace('http', 'ws')}/v1/channels/lat-${i}?token=${await token(`listener-${i}`)}`);
      await new Promise<void>((resolve, reject) => {
        ws.on('error', reject);
        ws.on('message', (data) => {
          const text = data.toString();
          if (text.includes('"op":"ready"')) return resolve();
          const frame = JSON.parse(text) as { content?: { n?: unknown } };
          const n = frame.content?.n;
          const at = typeof n === 'number' && n >= 0 ? sentAt.get(n) : undefined;
          if (at === undefined) return;
          sentAt.delete(n as number);
          frames++;
          frameLatency.recordValue(Math.max(1, Number(process.hrtime.bigint() - at) / 1000));
        });
      });
      return ws;
    }),
  );
  const http = new HttpPool(controlUrl, { connections: CLIENTS, pipelining: 1 });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` };
  const send = async (n: number) => {
    const at = process.hrtime.bigint();
    sentAt.set(n, at);
    const res = await http.request({
      method: 'POST',
      path: `/v1/channels/lat-${n % LATENCY_CHANNELS}/messages`,
      headers,
      body: JSON.stringify({ content: { text: 'latency probe with a little text in it', n } }),
    });
    await res.body.text();
    if (res.statusCode !== 201) sentAt.delete(n);
    else if (n >= 0) answered.recordValue(Math.max(1, Number(process.hrtime.bigint() - at) / 1000));
  };
  // every channel cached first, as in the throughput cases
  await Promise.all(Array.from({ length: LATENCY_CHANNELS }, (_, i) => send(-1 - i)));
  // then the same rate for LATENCY_WARMUP_MS, not measured: run alone (BENCH_LATENCY_RATE), the
  // processes would otherwise be measured while their code is still being compiled
  await openLoop(rate, LATENCY_WARMUP_MS, (n) => send(-1_000_000 - n));
  frameLatency.reset();
  answered.reset();
  frames = 0;
  const windows = await Promise.all(services.map((service) => pausesWindow(service.internalUrl)));
  const traced = services.map((service) => service.output.length);
  generatorLoop.enable();
  const sent = await openLoop(rate, LATENCY_MS, send, lateness);
  generatorLoop.disable();
  const pauses = await Promise.all(windows.map((window) => window.end()));
  const gcLines = services.map((service, i) => service.output.slice(traced[i]));
  const deadline = Date.now() + 5_000;
  while (frames < sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const ws of sockets) ws.close();
  await http.close();
  const ms = (h: hdr.Histogram, p: number) => (h.getValueAtPercentile(p) / 1000).toFixed(1);
  const tail =
    `  publish → 201: p50 ${ms(answered, 50)} ms, p99 ${ms(answered, 99)} ms\n` +
    `  generator: sent late by p50 ${ms(lateness, 50)} ms, p99 ${ms(lateness, 99)} ms, max ${ms(lateness, 100)} ms; ` +
    `its loop delay p99 ${(generatorLoop.percentile(99) / 1e6).toFixed(1)} ms, max ${(generatorLoop.max / 1e6).toFixed(1)} ms\n` +
    services.map((service, i) => `  ${service.kind}: ${describePauses(pauses[i]!)}${describeGcTrace(gcLines[i]!)}\n`).join('');
  return { p50: frameLatency.getValueAtPercentile(50) / 1000, p99: frameLatency.getValueAtPercentile(99) / 1000, frames, sent, tail };
}
