import { StorageType, type KV } from 'nats';
import type { NatsConnection } from '@rtm/bus';

export interface CasEntry {
  value: string;
  revision: number;
}

/**
 * The shared counters' store. Guarantees the limiters rely on:
 * - `swap` is compare-and-set: it writes only if the key is still at `revision` (0: the key does
 *   not exist), so two gateways can never both move a counter from the same value;
 * - keys vanish on their own some time after their last write (so windows and dead gateways'
 *   counts need no clean-up);
 * - a failure (store unreachable, too slow) rejects; the limiters then fall back to local shares.
 */
export interface CasStore {
  get(key: string): Promise<CasEntry | null>;
  /** False when the key is no longer at `revision` (someone else wrote first). */
  swap(key: string, value: string, revision: number): Promise<boolean>;
}

const WRONG_LAST_SEQUENCE = 10071;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`limit store did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A NATS JetStream KV bucket in memory storage, one value per key, entries expiring `ttlMs` after
 * their last write. Opened on first use; a failed open is retried on the next call.
 */
export class KvCasStore implements CasStore {
  private opened: Promise<KV> | undefined;
  private readonly nc: NatsConnection;
  private readonly bucket: string;
  private readonly ttlMs: number;
  private readonly deadlineMs: number;

  constructor(nc: NatsConnection, bucket: string, options: { ttlMs: number; deadlineMs: number }) {
    this.nc = nc;
    this.bucket = bucket;
    this.ttlMs = options.ttlMs;
    this.deadlineMs = options.deadlineMs;
  }

  async get(key: string): Promise<CasEntry | null> {
    const kv = await this.kv();
    const entry = await withDeadline(kv.get(key), this.deadlineMs);
    if (!entry || entry.operation !== 'PUT') return null;
    return { value: decoder.decode(entry.value), revision: entry.revision };
  }

  async swap(key: string, value: string, revision: number): Promise<boolean> {
    const kv = await this.kv();
    try {
      await withDeadline(kv.put(key, encoder.encode(value), { previousSeq: revision }), this.deadlineMs);
      return true;
    } catch (error) {
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_SEQUENCE) return false;
      throw error;
    }
  }

  private kv(): Promise<KV> {
    if (!this.opened) {
      const opening = withDeadline(this.open(), this.deadlineMs * 4);
      this.opened = opening;
      opening.catch(() => {
        if (this.opened === opening) this.opened = undefined;
      });
    }
    return this.opened;
  }

  private async open(): Promise<KV> {
    const js = this.nc.jetstream();
    try {
      return await js.views.kv(this.bucket, { ttl: this.ttlMs, history: 1, storage: StorageType.Memory });
    } catch {
      // created by a gateway with other settings: use it as it is
      return js.views.kv(this.bucket, { bindOnly: true });
    }
  }
}

/** A store in this process only: for unit tests and for reasoning about the limiters. */
export class MemoryCasStore implements CasStore {
  private readonly entries = new Map<string, CasEntry>();
  private revision = 0;

  async get(key: string): Promise<CasEntry | null> {
    return this.entries.get(key) ?? null;
  }

  async swap(key: string, value: string, revision: number): Promise<boolean> {
    if ((this.entries.get(key)?.revision ?? 0) !== revision) return false;
    this.entries.set(key, { value, revision: ++this.revision });
    return true;
  }
}
