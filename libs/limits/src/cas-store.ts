import { StorageType, headers, type KV, type Msg, type MsgHdrs } from 'nats';
import type { NatsConnection, Requester } from '@rtm/bus';

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
const EMPTY = new Uint8Array(0);

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
 * their last write. Opened on first use (nats.js creates or binds it); a failed open is retried on
 * the next call.
 *
 * With a `requester` (the process's one reply subscription, @rtm/bus Requester), a read and a
 * compare-and-set are each one request on the bucket's own subjects, the same ones nats.js's KV
 * uses: a put on `$KV.<bucket>.<key>` with `Nats-Expected-Last-Subject-Sequence` (answered by the
 * stream's publish acknowledgement), and a read of the key's last message through the stream's
 * direct get. nats.js's KV calls cost, for each, a timer, a promise chain and an error built with
 * its stack for every request that succeeded: a socket storm makes two or three of them per socket
 * (the user's socket quota and socket-open rate), about a tenth of the gateway's work in it.
 * Without a requester both go through nats.js; so do the reads of a bucket without direct gets
 * (made by a server before 2.9), whose writes still take the lean path (a put needs no direct get).
 */
export class KvCasStore implements CasStore {
  private opened: Promise<KV> | undefined;
  /** Whether the opened bucket serves direct gets (its stream's `allow_direct`). */
  private direct = false;
  private readonly nc: NatsConnection;
  private readonly bucket: string;
  private readonly ttlMs: number;
  private readonly deadlineMs: number;
  private readonly requester: Requester | undefined;

  constructor(nc: NatsConnection, bucket: string, options: { ttlMs: number; deadlineMs: number; requester?: Requester }) {
    this.nc = nc;
    this.bucket = bucket;
    this.ttlMs = options.ttlMs;
    this.deadlineMs = options.deadlineMs;
    this.requester = options.requester;
  }

  async get(key: string): Promise<CasEntry | null> {
    const kv = await this.kv();
    if (this.requester && this.direct) return this.directGet(key);
    const entry = await withDeadline(kv.get(key), this.deadlineMs);
    if (entry?.operation !== 'PUT') return null;
    return { value: decoder.decode(entry.value), revision: entry.revision };
  }

  async swap(key: string, value: string, revision: number): Promise<boolean> {
    const kv = await this.kv();
    if (this.requester) return this.put(key, value, revision);
    try {
      await withDeadline(kv.put(key, encoder.encode(value), { previousSeq: revision }), this.deadlineMs);
      return true;
    } catch (error) {
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_SEQUENCE) return false;
      throw error;
    }
  }

  private async directGet(key: string): Promise<CasEntry | null> {
    const msg = await this.request(`$JS.API.DIRECT.GET.KV_${this.bucket}.$KV.${this.bucket}.${key}`, EMPTY);
    const h = msg.headers;
    if (h?.code === 404) return null;
    if (!h || h.hasError) throw new Error(`limit store read failed: ${h?.code ?? 'no headers'} ${h?.description ?? ''}`.trim());
    // a delete or purge marker is no value (the limiters never write one; TTL expiry leaves nothing)
    const operation = h.get('KV-Operation');
    if (operation === 'DEL' || operation === 'PURGE') return null;
    const revision = Number(h.get('Nats-Sequence'));
    if (!Number.isInteger(revision) || revision <= 0) throw new Error('limit store read failed: no sequence');
    return { value: decoder.decode(msg.data), revision };
  }

  private async put(key: string, value: string, revision: number): Promise<boolean> {
    const h = headers();
    h.set('Nats-Expected-Last-Subject-Sequence', String(revision));
    const msg = await this.request(`$KV.${this.bucket}.${key}`, encoder.encode(value), h);
    let ack: { seq?: unknown; error?: { err_code?: number; description?: string } };
    try {
      ack = JSON.parse(decoder.decode(msg.data)) as typeof ack;
    } catch {
      throw new Error('limit store write failed: not an acknowledgement');
    }
    if (ack.error) {
      if (ack.error.err_code === WRONG_LAST_SEQUENCE) return false;
      throw new Error(`limit store write failed: ${ack.error.description ?? 'error'}`);
    }
    if (typeof ack.seq !== 'number') throw new Error('limit store write failed: no sequence');
    return true;
  }

  /** One request through the requester; its time-out is the store's deadline. */
  private request(subject: string, data: Uint8Array, h?: MsgHdrs): Promise<Msg> {
    return this.requester!.request(subject, data, { timeoutMs: this.deadlineMs, ...(h && { headers: h }) });
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
    let kv: KV;
    try {
      kv = await js.views.kv(this.bucket, { ttl: this.ttlMs, history: 1, storage: StorageType.Memory });
    } catch {
      // created by a gateway with other settings: use it as it is
      kv = await js.views.kv(this.bucket, { bindOnly: true });
    }
    const status = await kv.status();
    this.direct = status.streamInfo.config.allow_direct === true;
    return kv;
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
