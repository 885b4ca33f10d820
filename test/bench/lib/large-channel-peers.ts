/**
 * The large channel's two onlookers (test/bench/large-channel.bench.ts): an observer connection
 * subscribed with `occupancy: true` before the storm, keeping the last occupancy frame; and the
 * neighbour, another environment publishing to its own channel at a steady rate (open loop),
 * its latency taken per phase in a process of its own.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { CHANNEL, NEIGHBOUR_CHANNEL } from './large-channel-options.ts';
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

/**
 * The neighbour's publishes, run in a process of their own (lib/neighbour-process.ts) so that
 * their timing is the service's and not this process's: the load generator also drives the
 * storm's ten thousand sockets, and a publish answered while its loop is busy with them would be
 * timed late by as much as that loop is held.
 */
export function neighbour(controlUrl: string, secretKey: string, rate: number) {
  const child = fork(fileURLToPath(new URL('./neighbour-process.ts', import.meta.url)), [controlUrl, secretKey, String(rate), NEIGHBOUR_CHANNEL], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = <T>(op: 'phase' | 'take' | 'stop'): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onExit = () => reject(new Error(`neighbour process exited before answering ${op}`));
      child.once('exit', onExit);
      child.once('message', (answer: T) => {
        child.off('exit', onExit);
        resolve(answer);
      });
      child.send(op);
    });
  return {
    phase: (): Promise<void> => ask<void>('phase'),
    /** The figures of the phase so far (publishes still in flight count towards the next). */
    take: async (): Promise<PublishFigures> => {
      const figures = await ask<Omit<PublishFigures, 'failed'> & { failed: [string, number][] }>('take');
      return { ...figures, failed: new Map(figures.failed) };
    },
    async stop(): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await ask<void>('stop').catch(() => {});
      await exited;
    },
  };
}
