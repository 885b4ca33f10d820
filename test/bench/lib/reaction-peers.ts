/**
 * The reactions benchmark's parts beside the service (test/bench/reactions.bench.ts): the two
 * load generators, each in a process of its own (lib/reaction-load.ts), driven over IPC; and a
 * subscriber of the channel on `/v1/connect` that counts the frames it receives by kind.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as hdr from 'hdr-histogram-js';
import WebSocket from 'ws';
import type { LoadConfig, PhaseFigures } from './reaction-load.ts';
import { histogram } from './figures.ts';

export interface Generator {
  child: ChildProcess;
  run(): Promise<void>;
  hold(): Promise<void>;
  phase(): Promise<void>;
  take(): Promise<PhaseFigures>;
  stop(): Promise<void>;
}

/** Forks a generator, sends it its config and resolves once it is ready (tokens signed). */
export async function generator(config: LoadConfig): Promise<Generator> {
  const child = fork(fileURLToPath(new URL('./reaction-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = <T>(order: unknown, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onExit = () => reject(new Error(`the ${config.mode} generator exited before answering ${what}`));
      child.once('exit', onExit);
      child.once('message', (answer: T) => {
        child.off('exit', onExit);
        resolve(answer);
      });
      child.send(order as object);
    });
  await ask(config, 'its config');
  const op =
    <T = void>(name: string) =>
    () =>
      ask<T>({ op: name }, name);
  return {
    child,
    run: op('run'),
    hold: op('hold'),
    phase: op('phase'),
    take: op<PhaseFigures>('take'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await ask({ op: 'stop' }, 'stop').catch(() => {});
      await exited;
    },
  };
}

/** Phases' latencies together (µs). */
export function merged(...phases: PhaseFigures[]): hdr.Histogram {
  const all = histogram(3_600_000_000);
  for (const phase of phases) all.add(hdr.decodeFromCompressedBase64(phase.latency));
  return all;
}

/** Counts of a subscriber's frames since the last `take`, by kind. */
export interface FrameCounts {
  messages: number;
  summaries: number;
  other: number;
  /** The last summary's reactions, counted over every type. */
  lastSummaryTotal: number;
}

/**
 * A `/v1/connect` connection subscribed to `channelIds` (the publishes' channel, and the storm's
 * when it is another): counts their message frames and `summary` frames, and keeps the last
 * summary's total count.
 */
export async function subscriber(realtimeUrl: string, token: string, channelIds: string[]): Promise<{ take(): FrameCounts; close(): void }> {
  const ws = new WebSocket(`${realtimeUrl.replace(/^http/, 'ws')}/v1/connect?token=${token}`, { perMessageDeflate: false });
  const watched = new Set(channelIds);
  let counts: FrameCounts = { messages: 0, summaries: 0, other: 0, lastSummaryTotal: 0 };
  let lastTotal = 0;
  let subscribed = 0;
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as { op?: string; channelId?: string; reactions?: Record<string, { count: number }> };
      if (frame.op === 'connected') for (const channelId of watched) ws.send(JSON.stringify({ op: 'subscribe', ref: channelId, channelId }));
      else if (frame.op === 'subscribed') {
        if (++subscribed === watched.size) resolve();
      } else if (frame.op === 'error') reject(new Error(`subscribe: ${data.toString('utf8')}`));
      else if (!watched.has(frame.channelId ?? '')) return;
      else if (frame.op === undefined) counts.messages++;
      else if (frame.op === 'summary') {
        counts.summaries++;
        lastTotal = Object.values(frame.reactions ?? {}).reduce((sum, r) => sum + r.count, 0);
      } else counts.other++;
    });
  });
  return {
    take() {
      const taken = { ...counts, lastSummaryTotal: lastTotal };
      counts = { messages: 0, summaries: 0, other: 0, lastSummaryTotal: 0 };
      return taken;
    },
    close: () => ws.close(),
  };
}

/** The sum of a counter's series (every label set) in a process's /internal/metrics. */
export async function counterSum(internalUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${internalUrl}/internal/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}
