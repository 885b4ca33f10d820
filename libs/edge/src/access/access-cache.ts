import { decodeInvalidation } from '@rtm/limits';
import { decodeJson, encodeJson, type NatsConnection, type Subjects } from '@rtm/bus';
import { SharedLoads } from '@rtm/auth';

interface Entry {
  value: unknown;
  expires: number;
}

/**
 * What a user's channel access depends on (bans, access, namespace, role: see channel-access.ts),
 * reused for ACCESS_CACHE_MS, so publishing does not query Postgres per message. Every change made through the API (membership, bans, channel access, config deploy)
 * announces itself on the bus and every gateway drops that environment's decisions at once; the
 * TTL bounds staleness if an announcement is lost. A decision whose query started before an
 * invalidation arrived is not stored (per-environment generation), so a slow read can never
 * re-insert what a change made stale. Concurrent misses of the same key share one read (a batch
 * publish, or the moment a busy key expires, would otherwise send one query per message).
 */
/** What the cache needs: how long a decision is kept (0: never), and the bus that announces changes. */
export interface AccessCacheDeps {
  ttlMs: number;
  /** Subscriptions to the two announcement subjects (only their callbacks and unsubscribe are used). */
  nc: { subscribe(subject: string, options: { callback: (error: unknown, msg: { data: Uint8Array }) => void }): { unsubscribe(): void } };
  subjects: Pick<Subjects, 'accessChanged' | 'invalidate'>;
}

export class AccessCache {
  private readonly ttlMs: number;
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly generations = new Map<string, number>();
  /** Reads in flight, by environment, key and generation: concurrent misses wait for the same one. */
  private readonly loading = new SharedLoads();
  private epoch = 0;
  private subscriptions: { unsubscribe(): void }[] = [];
  private readonly deps: AccessCacheDeps;

  /** Builds the cache without I/O; `start()` listens for the announcements that invalidate it. */
  constructor(deps: AccessCacheDeps) {
    this.deps = deps;
    this.ttlMs = deps.ttlMs;
  }

  start(): void {
    const { deps } = this;
    if (this.ttlMs === 0 || this.subscriptions.length > 0) return;
    this.subscriptions = [
      deps.nc.subscribe(deps.subjects.accessChanged, {
        callback: (error, msg) => {
          if (error) return;
          try {
            const { environmentId } = decodeJson<{ environmentId?: unknown }>(msg.data);
            if (typeof environmentId === 'string') return this.dropEnvironment(environmentId);
          } catch {
            // unreadable: drop everything
          }
          this.dropAll();
        },
      }),
      // a config deploy may change the environment's default access
      // (it names its environment: only that one's decisions are dropped)
      deps.nc.subscribe(deps.subjects.invalidate, {
        callback: (_error, msg) => {
          const environmentId = decodeInvalidation(msg.data);
          if (environmentId === undefined) this.dropAll();
          else this.dropEnvironment(environmentId);
        },
      }),
    ];
  }

  async lookup<T>(environmentId: string, channelId: string, userId: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs === 0) return load();
    const key = `${channelId}\u0000${userId}`;
    const hit = this.entries.get(environmentId)?.get(key);
    const now = Date.now();
    if (hit && hit.expires > now) return hit.value as T;
    const generation = this.generationOf(environmentId);
    const flight = `${environmentId}\u0000${key}\u0000${generation}`;
    const pending = this.loading.running<T>(flight);
    if (pending) return pending;
    const value = await this.loading.start(flight, load);
    if (this.generationOf(environmentId) === generation) {
      let ofEnvironment = this.entries.get(environmentId);
      if (!ofEnvironment) this.entries.set(environmentId, (ofEnvironment = new Map()));
      if (ofEnvironment.size > 100_000) ofEnvironment.clear();
      ofEnvironment.set(key, { value, expires: now + this.ttlMs });
    }
    return value;
  }

  stop(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
  }

  private generationOf(environmentId: string): string {
    return `${this.epoch}.${this.generations.get(environmentId) ?? 0}`;
  }

  private dropEnvironment(environmentId: string): void {
    this.entries.delete(environmentId);
    this.generations.set(environmentId, (this.generations.get(environmentId) ?? 0) + 1);
  }

  private dropAll(): void {
    this.entries.clear();
    this.epoch++;
  }
}

/**
 * Tells every gateway that access in an environment changed, and waits until the bus has it,
 * so a caller that gets its answer after this can rely on other gateways deciding afresh.
 */
export async function announceAccessChange(deps: { nc: NatsConnection; subjects: Pick<Subjects, 'accessChanged'> }, environmentId: string): Promise<void> {
  deps.nc.publish(deps.subjects.accessChanged, encodeJson({ environmentId }));
  await deps.nc.flush();
}
