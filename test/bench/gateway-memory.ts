/**
 * The benchmarks' reading of the gateway's memory: a minimal Chrome DevTools Protocol client over
 * the inspector socket of a process started with `--inspect=127.0.0.1:0`, and the heap used and
 * RSS from its /internal/metrics after forced GCs, once they have settled.
 */
import WebSocket from 'ws';
import type { RunningProcess } from '../helpers/cluster.ts';
import { sleep } from './lib/figures.ts';

/** A minimal Chrome DevTools Protocol client over the gateway's inspector socket. */
export class Inspector {
  private readonly ws: WebSocket;
  private next = 1;
  private readonly pending = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();
  private readonly listeners = new Map<string, (params: any) => void>();

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
      if (message.method) this.listeners.get(message.method)?.(message.params);
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id!);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
  }

  /** Connects to the inspector whose address a process started with `--inspect` printed in `output`. */
  static async of(name: string, output: readonly string[], options: { maxPayload?: number } = {}): Promise<Inspector> {
    const deadline = Date.now() + 10_000;
    let url: string | undefined;
    while (!url) {
      url = output.map((line) => /Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1]).find(Boolean);
      if (url) break;
      if (Date.now() > deadline) throw new Error(`${name}: no inspector address in its output`);
      await sleep(50);
    }
    const ws = new WebSocket(url, options);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new Inspector(ws);
  }

  /** Calls `listener` with the parameters of every event `method` the inspector sends. */
  on(method: string, listener: (params: any) => void): void {
    this.listeners.set(method, listener);
  }

  send<T = unknown>(method: string, params: object = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

export interface Memory {
  heap: number;
  rss: number;
}

/** The gateway's /internal/metrics after two forced full GCs. */
export async function metricsAfterGc(gateway: RunningProcess, inspector: Inspector): Promise<string> {
  await inspector.send('HeapProfiler.collectGarbage');
  await inspector.send('HeapProfiler.collectGarbage');
  return (await fetch(`${gateway.internalUrl}/internal/metrics`)).text();
}

/** The value of metric `name` in a metrics text (`name{node="…",kind="…"} value`: the registry has default labels). */
export function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  if (!line) throw new Error(`gateway metrics lack ${name}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** The gateway's heap used and RSS after a forced full GC, from its /internal/metrics. */
async function gatewayMemoryOnce(gateway: RunningProcess, inspector: Inspector): Promise<Memory> {
  const text = await metricsAfterGc(gateway, inspector);
  return { heap: metricValue(text, 'nodejs_heap_size_used_bytes'), rss: metricValue(text, 'process_resident_memory_bytes') };
}

/**
 * A memory reading once it has settled: read every `settleMs` (after a forced GC) until two
 * readings of the heap agree within 1 % (or 256 KiB), at most 10 times: work still in flight
 * (presence writes, kick watches) is not counted as the cost of what is open.
 */
export async function settledMemory<T extends Memory>(readOnce: () => Promise<T>, settleMs = 1_000): Promise<T> {
  await sleep(settleMs);
  let last = await readOnce();
  for (let i = 0; i < 10; i++) {
    await sleep(settleMs);
    const next = await readOnce();
    const settled = Math.abs(next.heap - last.heap) <= Math.max(0.01 * last.heap, 256 * 1024);
    last = next;
    if (settled) break;
  }
  return last;
}

/** The gateway's heap used and RSS once it has settled (`settledMemory`). */
export function gatewayMemory(gateway: RunningProcess, inspector: Inspector, settleMs = 1_000): Promise<Memory> {
  return settledMemory(() => gatewayMemoryOnce(gateway, inspector), settleMs);
}
