/**
 * The presence bucket's plumbing (presence-store.ts): a deadline for every NATS step, key listings,
 * a bound on the steps in flight, and opening the bucket.
 */
import { StorageType, type KV } from 'nats';
import type { NatsConnection } from '@rtm/bus';

/** Presence KV operations in flight at once; more wait their turn instead of timing out together. */
export const KV_CONCURRENCY = 64;
/** The longest one presence step (or a listing of the bucket) may take: a stalled one frees its slot. */
export const KV_DEADLINE_MS = 10_000;

/** `promise`, or a rejection after `ms`: nothing in presence may wait on NATS for ever. */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`${what} took over ${ms} ms`));
    }, ms);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The keys under `filter` (a KV listing is a short-lived JetStream consumer), within the deadline. */
export async function listKeys(kv: KV, filter: string): Promise<string[]> {
  let stop: (() => void) | undefined;
  const collect = (async () => {
    const iterator = await kv.keys(filter);
    stop = () => iterator.stop();
    const keys: string[] = [];
    for await (const key of iterator) keys.push(key);
    return keys;
  })();
  return withDeadline(collect, KV_DEADLINE_MS, 'presence key listing', () => stop?.());
}

/** A counting semaphore: `run` starts `task` once fewer than `limit` are running. */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** The bucket, created with the gateway's TTL (memory storage, one value per key), or bound as it is. */
export async function openBucket(nc: NatsConnection, name: string, ttlMs: number): Promise<KV> {
  const js = nc.jetstream();
  try {
    return await js.views.kv(name, { ttl: ttlMs, history: 1, storage: StorageType.Memory });
  } catch {
    // created by a gateway with another TTL: use it as it is
    return js.views.kv(name, { bindOnly: true });
  }
}
