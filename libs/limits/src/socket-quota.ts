/**
 * Cluster-wide quotas on open sockets (per user, per environment).
 *
 * Shared state: one document per quota key in the shared store, holding each gateway's count of
 * open sockets and until when that count is believed (`{gatewayId: {n, until}}`). A gateway
 * admits a socket by compare-and-set on that document: the counts of the other gateways that are
 * still believed, plus its own count with the new socket, must stay within the limit, and its
 * new count is written in the same step. Two gateways can therefore never both take the last
 * place. Each gateway rewrites its counts every REFRESH_MS and an entry is believed for
 * BELIEVED_MS after its write, so a killed gateway's sockets stop counting within BELIEVED_MS.
 *
 * Overshoot: none while the store is reachable and the gateways' clocks agree within
 * BELIEVED_MS - REFRESH_MS. While it is unreachable a gateway admits up to its local share
 * (limit / live gateways), so the cluster stays within the limit plus one per gateway.
 */
import type { CasStore } from './cas-store.ts';
import { localShare } from './window-lease.ts';

export const REFRESH_MS = 5_000;
export const BELIEVED_MS = 15_000;

export type QuotaDoc = Record<string, { n: number; until: number }>;

export function parseQuotaDoc(text: string | undefined): QuotaDoc {
  if (!text) return {};
  try {
    const doc = JSON.parse(text) as unknown;
    return doc && typeof doc === 'object' ? (doc as QuotaDoc) : {};
  } catch {
    return {};
  }
}

/** Sockets the other gateways still hold, by their believed entries. */
export function othersTotal(doc: QuotaDoc, self: string, now: number): number {
  let total = 0;
  for (const [gateway, entry] of Object.entries(doc)) {
    if (gateway !== self && entry.until > now && Number.isFinite(entry.n)) total += Math.max(0, entry.n);
  }
  return total;
}

/** The document with this gateway's count written and expired entries dropped. */
export function withCount(doc: QuotaDoc, self: string, n: number, now: number): QuotaDoc {
  const next: QuotaDoc = {};
  for (const [gateway, entry] of Object.entries(doc)) if (gateway !== self && entry.until > now) next[gateway] = entry;
  if (n > 0) next[self] = { n, until: now + BELIEVED_MS };
  return next;
}

export interface SocketQuotaOptions {
  store: CasStore;
  gatewayId: string;
  liveGateways: () => number;
  now?: () => number;
  onStoreError?: (error: unknown) => void;
}

/** One gateway's side of the socket quotas. */
export class SocketQuota {
  private readonly counts = new Map<string, number>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly options: SocketQuotaOptions;
  private readonly now: () => number;

  constructor(options: SocketQuotaOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  /**
   * Counts one more socket under `key` if the cluster holds fewer than `limit`; false (and
   * nothing counted) otherwise. Every true must be matched by one `release(key)`.
   */
  async acquire(key: string, limit: number): Promise<boolean> {
    const local = this.counts.get(key) ?? 0;
    if (local + 1 > limit) return false;
    this.counts.set(key, local + 1);
    const admitted = await this.serially(key, () => this.check(key, limit));
    if (!admitted) this.release(key);
    return admitted;
  }

  release(key: string): void {
    const n = (this.counts.get(key) ?? 0) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
    void this.serially(key, () => this.write(key)).catch(() => {});
  }

  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Rewrites every count this gateway holds, so they stay believed (every REFRESH_MS). */
  async refresh(): Promise<void> {
    await Promise.allSettled([...this.counts.keys()].map((key) => this.serially(key, () => this.write(key))));
  }

  private async check(key: string, limit: number): Promise<boolean> {
    const { store, gatewayId } = this.options;
    try {
      for (let attempt = 0; attempt < 16; attempt++) {
        const entry = await store.get(key);
        const doc = parseQuotaDoc(entry?.value);
        const now = this.now();
        const mine = this.counts.get(key) ?? 0;
        if (othersTotal(doc, gatewayId, now) + mine > limit) return false;
        if (await store.swap(key, JSON.stringify(withCount(doc, gatewayId, mine, now)), entry?.revision ?? 0)) return true;
      }
      return false;
    } catch (error) {
      this.options.onStoreError?.(error);
      return (this.counts.get(key) ?? 0) <= localShare(limit, this.options.liveGateways());
    }
  }

  private async write(key: string): Promise<void> {
    const { store, gatewayId } = this.options;
    for (let attempt = 0; attempt < 16; attempt++) {
      const entry = await store.get(key);
      const doc = parseQuotaDoc(entry?.value);
      if (!entry && !this.counts.has(key)) return;
      if (await store.swap(key, JSON.stringify(withCount(doc, gatewayId, this.counts.get(key) ?? 0, this.now())), entry?.revision ?? 0)) return;
    }
  }

  /** One store operation at a time per key on this gateway, in call order. */
  private serially<T>(key: string, step: () => Promise<T>): Promise<T> {
    const next = (this.chains.get(key) ?? Promise.resolve()).catch(() => {}).then(step);
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    }).catch(() => {});
    return next;
  }
}
