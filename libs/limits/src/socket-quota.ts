/**
 * Cluster-wide quotas on open sockets (per user, per environment).
 *
 * Shared state: one document per quota key in the shared store, holding each gateway's count of
 * open sockets and until when that count is believed (`{gatewayId: {n, until}}`). A gateway
 * admits a socket by compare-and-set on that document: the counts of the other gateways that are
 * still believed, plus its own count with the new socket, must stay within the limit, and its
 * new count is written in the same step. Two gateways can therefore never both take the last
 * place. An entry is believed while its gateway is alive (its heartbeats on the bus, see
 * live-gateways.ts) or for BELIEVED_MS after its write (a gateway not heard from yet, e.g. by one
 * that just started). Each gateway rewrites its counts every REFRESH_MS, so its entries outlive
 * neither the store's expiry nor BELIEVED_MS for long; a killed gateway's sockets stop counting
 * once its heartbeats stop and its last write is older than BELIEVED_MS. Believing live
 * gateways is what lets the rewrite be rare: one key per user with a socket, rewritten every 5 s,
 * cost thousands of store operations a second at 10,000 users.
 *
 * Overshoot: none while the store is reachable and the gateways' clocks agree within
 * BELIEVED_MS. While it is unreachable a gateway admits up to its local share (limit / live
 * gateways), so the cluster stays within the limit plus one per gateway.
 */
import type { CasStore } from './cas-store.ts';
import { localShare } from './window-lease.ts';

export const REFRESH_MS = 20_000;
export const BELIEVED_MS = 15_000;
/** Documents rewritten at once by a refresh round. */
const REFRESH_CONCURRENCY = 16;

/** Whether a gateway is alive by its heartbeats (the caller's own view). */
export type IsLive = (gatewayId: string) => boolean;
const nobodyLive: IsLive = () => false;

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
export function othersTotal(doc: QuotaDoc, self: string, now: number, isLive: IsLive = nobodyLive): number {
  let total = 0;
  for (const [gateway, entry] of Object.entries(doc)) {
    if (gateway !== self && (entry.until > now || isLive(gateway)) && Number.isFinite(entry.n)) total += Math.max(0, entry.n);
  }
  return total;
}

/** The document with this gateway's count written and entries no longer believed dropped. */
export function withCount(doc: QuotaDoc, self: string, n: number, now: number, isLive: IsLive = nobodyLive): QuotaDoc {
  const next: QuotaDoc = {};
  for (const [gateway, entry] of Object.entries(doc)) if (gateway !== self && (entry.until > now || isLive(gateway))) next[gateway] = entry;
  if (n > 0) next[self] = { n, until: now + BELIEVED_MS };
  return next;
}

export interface SocketQuotaOptions {
  store: CasStore;
  gatewayId: string;
  liveGateways: () => number;
  /** Whether another gateway is alive by its heartbeats (its entries are believed while it is); default: none known. */
  isLive?: IsLive;
  now?: () => number;
  onStoreError?: (error: unknown) => void;
}

/** Acquires of one key waiting for the next compare-and-set round. */
interface Round {
  limit: number;
  admit: ((admitted: boolean) => void)[];
}

/**
 * One gateway's side of the socket quotas. Acquires of one key wait for one store round at a
 * time (get, then compare-and-set), and a round admits every acquire that queued before it
 * started, in order, as far as the places left allow: a storm of sockets into one environment
 * costs a few rounds, not two store operations per socket one after another.
 */
export class SocketQuota {
  /** Sockets admitted and held, per key. */
  private readonly counts = new Map<string, number>();
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Acquires queued for the next round, per key. */
  private readonly rounds = new Map<string, Round>();
  private readonly options: SocketQuotaOptions;
  private readonly now: () => number;
  private readonly isLive: IsLive;

  constructor(options: SocketQuotaOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.isLive = options.isLive ?? nobodyLive;
  }

  /**
   * Counts one more socket under `key` if the cluster holds fewer than `limit`; false (and
   * nothing counted) otherwise. Every true must be matched by one `release(key)`.
   */
  acquire(key: string, limit: number): Promise<boolean> {
    let round = this.rounds.get(key);
    if ((this.counts.get(key) ?? 0) + (round?.admit.length ?? 0) + 1 > limit) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      if (!round) {
        round = { limit, admit: [] };
        this.rounds.set(key, round);
        const queued = round;
        void this.serially(key, () => this.admit(key, queued)).catch(() => {
          for (const admit of queued.admit) admit(false);
        });
      }
      round.limit = limit;
      round.admit.push(resolve);
    });
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

  /**
   * Rewrites every count this gateway holds, so they stay believed (every REFRESH_MS),
   * REFRESH_CONCURRENCY at a time: 10,000 users' documents rewritten at once were a burst of
   * 20,000 store requests that every other request of the gateway queued behind.
   */
  async refresh(): Promise<void> {
    const keys = [...this.counts.keys()];
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const key = keys[next++]!;
        if (this.counts.has(key)) await this.serially(key, () => this.write(key)).catch(() => {});
      }
    };
    await Promise.all(Array.from({ length: Math.min(REFRESH_CONCURRENCY, keys.length) }, worker));
  }

  /** One round: as many of the queued acquires as the cluster has places for, first come first. */
  private async admit(key: string, round: Round): Promise<void> {
    // acquires from now on queue for the next round
    if (this.rounds.get(key) === round) this.rounds.delete(key);
    const { store, gatewayId } = this.options;
    const wanted = round.admit.length;
    let granted = 0;
    try {
      // holding nothing under the key, this gateway most likely meets a key nobody holds (a user's
      // first socket): write its count in one step (revision 0: only if the key does not exist)
      const first = this.counts.get(key) ?? 0;
      if (first === 0 && Math.min(wanted, round.limit) > 0) {
        const take = Math.min(wanted, round.limit);
        if (await store.swap(key, JSON.stringify(withCount({}, gatewayId, take, this.now())), 0)) granted = take;
      }
      for (let attempt = 0; attempt < 16 && granted === 0; attempt++) {
        const entry = await store.get(key);
        const doc = parseQuotaDoc(entry?.value);
        const now = this.now();
        const held = this.counts.get(key) ?? 0;
        const room = Math.max(0, round.limit - othersTotal(doc, gatewayId, now, this.isLive) - held);
        const take = Math.min(wanted, room);
        if (take === 0) break;
        if (await store.swap(key, JSON.stringify(withCount(doc, gatewayId, held + take, now, this.isLive)), entry?.revision ?? 0)) {
          granted = take;
          break;
        }
      }
    } catch (error) {
      this.options.onStoreError?.(error);
      // the store is unreachable: this gateway's local share of the limit
      const held = this.counts.get(key) ?? 0;
      granted = Math.max(0, Math.min(wanted, localShare(round.limit, this.options.liveGateways()) - held));
    }
    if (granted > 0) this.counts.set(key, (this.counts.get(key) ?? 0) + granted);
    round.admit.forEach((admit, index) => admit(index < granted));
  }

  private async write(key: string): Promise<void> {
    const { store, gatewayId } = this.options;
    for (let attempt = 0; attempt < 16; attempt++) {
      const entry = await store.get(key);
      const doc = parseQuotaDoc(entry?.value);
      if (!entry && !this.counts.has(key)) return;
      if (await store.swap(key, JSON.stringify(withCount(doc, gatewayId, this.counts.get(key) ?? 0, this.now(), this.isLive)), entry?.revision ?? 0)) return;
    }
  }

  /** One store operation at a time per key on this gateway, in call order. */
  private serially<T>(key: string, step: () => Promise<T>): Promise<T> {
    const next = (this.chains.get(key) ?? Promise.resolve()).catch(() => {}).then(step);
    this.chains.set(key, next);
    void next
      .finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      })
      .catch(() => {});
    return next;
  }
}
