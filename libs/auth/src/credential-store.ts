import type { Pool } from '@rtm/db';
import { hashKey, keyKindOf, type KeyKind } from './keys.ts';
import type { SigningKey } from './user-token.ts';
import type { KeyUsage } from './key-usage.ts';
import { SharedLoads } from './shared-loads.ts';

export interface ApiKeyRecord {
  keyId: string;
  environmentId: string;
  kind: KeyKind;
}

interface Entry<T> {
  value: T;
  expires: number;
}

/** Every cache lookup, for metrics: served from the cache, or loaded from Postgres. */
export type LookupObserver = (result: 'hit' | 'miss') => void;

/**
 * Credential lookups with a short in-process cache, so the hot path does not query Postgres per
 * request. A revoked key, a removed origin or a retired signing key stops working when its entry
 * expires (`ttlMs`, a few seconds) or at once when an invalidation arrives over the bus
 * (`invalidate(environmentId)`: only that environment's entries go, so one tenant's changes
 * never send every other tenant's traffic back to Postgres). Unknown keys are cached too, so a
 * flood of bad keys costs one query per key per `ttlMs`, not one per request. Look-ups of one
 * entry that miss together share one load: a storm of sockets arriving with tokens of one signing
 * key, or an entry expiring under load, costs one query, not one per request in flight. A load
 * that an invalidation or `clear()` overtook answers its own callers but is not cached, and later
 * callers load again.
 */
export class CredentialStore {
  private readonly keys = new Map<string, Entry<ApiKeyRecord | null>>();
  private readonly origins = new Map<string, Entry<ReadonlySet<string>>>();
  private readonly signing = new Map<string, Entry<SigningKey | null>>();
  private readonly active = new Map<string, Entry<SigningKey | null>>();
  private readonly pool: Pool;
  private readonly ttlMs: number;
  private readonly observe: LookupObserver;
  private readonly usage: KeyUsage | undefined;
  /** Loads in flight, by cache, key and the generation they started in. */
  private readonly loading = new SharedLoads();
  /** Bumped by every invalidation and clear: a load that started before one is not cached or shared. */
  private generation = 0;

  /** `usage`, when given, records when each key was last used (see KeyUsage). */
  constructor(pool: Pool, ttlMs: number, observe: LookupObserver = () => {}, usage?: KeyUsage) {
    this.pool = pool;
    this.ttlMs = ttlMs;
    this.observe = observe;
    this.usage = usage;
  }

  clear(): void {
    this.generation++;
    this.keys.clear();
    this.origins.clear();
    this.signing.clear();
    this.active.clear();
  }

  /**
   * Forgets what is cached for one environment: its keys, origins and signing keys. Entries
   * cached as unknown (null) belong to no environment and stay: a key that was unknown is not
   * made known by a revocation or an origin change.
   */
  invalidate(environmentId: string): void {
    this.generation++;
    for (const map of [this.keys, this.signing] as Map<string, Entry<{ environmentId: string } | null>>[]) {
      for (const [key, entry] of map) if (entry.value?.environmentId === environmentId) map.delete(key);
    }
    this.origins.delete(environmentId);
    this.active.delete(environmentId);
  }

  async apiKey(credential: string): Promise<ApiKeyRecord | null> {
    if (keyKindOf(credential) === null) return null;
    const record = await this.cached('keys', this.keys, credential, async () => {
      const { rows } = await this.pool.query<{ id: string; environment_id: string; kind: KeyKind }>(
        'select id, environment_id, kind from api_keys where key_hash = $1 and revoked_at is null',
        [hashKey(credential)],
      );
      const row = rows[0];
      return row ? { keyId: row.id, environmentId: row.environment_id, kind: row.kind } : null;
    });
    if (record) this.usage?.record(record.keyId);
    return record;
  }

  async allowedOrigins(environmentId: string): Promise<ReadonlySet<string>> {
    return this.cached('origins', this.origins, environmentId, async () => {
      const { rows } = await this.pool.query<{ origin: string }>('select origin from allowed_origins where environment_id = $1', [environmentId]);
      return new Set(rows.map((row) => row.origin));
    });
  }

  /**
   * A key that verifies tokens: not retired, or retired with its grace period still running (a
   * rotation sets `retired_at` in the future). Cached no longer than its grace period lasts.
   */
  async signingKey(kid: string): Promise<SigningKey | null> {
    const key = await this.cached('signing', this.signing, kid, async () => {
      const { rows } = await this.pool.query<{ id: string; environment_id: string; secret: Buffer; retires_ms: string | null }>(
        `select id, environment_id, secret, (extract(epoch from retired_at) * 1000)::bigint as retires_ms
         from signing_keys where id = $1 and (retired_at is null or retired_at > now())`,
        [kid],
      );
      const row = rows[0];
      if (!row) return null;
      const key: SigningKey & { retiresAtMs?: number } = { id: row.id, environmentId: row.environment_id, secret: new Uint8Array(row.secret) };
      if (row.retires_ms !== null) key.retiresAtMs = Number(row.retires_ms);
      return key;
    });
    const retiresAtMs = (key as (SigningKey & { retiresAtMs?: number }) | null)?.retiresAtMs;
    if (retiresAtMs !== undefined && retiresAtMs <= Date.now()) {
      this.signing.delete(kid);
      return null;
    }
    return key;
  }

  /** The key new tokens of an environment are signed with (the newest active one). */
  async activeSigningKey(environmentId: string): Promise<SigningKey> {
    const key = await this.cached('active', this.active, environmentId, async () => {
      const { rows } = await this.pool.query<{ id: string; secret: Buffer }>(
        `select id, secret from signing_keys where environment_id = $1 and retired_at is null
         order by created_at desc limit 1`,
        [environmentId],
      );
      const row = rows[0];
      return row ? { id: row.id, environmentId, secret: new Uint8Array(row.secret) } : null;
    });
    if (!key) throw new Error(`environment ${environmentId} has no signing key`);
    return key;
  }

  /** `cache` names the map in the loads' keys (the maps' keys may look alike). */
  private async cached<T>(cache: string, map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = map.get(key);
    if (hit && hit.expires > now) {
      this.observe('hit');
      return hit.value;
    }
    const generation = this.generation;
    const flight = `${cache}\u0000${key}\u0000${generation}`;
    const pending = this.loading.running<T>(flight);
    if (pending) {
      this.observe('hit');
      return pending;
    }
    this.observe('miss');
    const loaded = await this.loading.start(flight, load);
    if (generation === this.generation) {
      if (map.size > 50_000) map.clear();
      map.set(key, { value: loaded, expires: now + this.ttlMs });
    }
    return loaded;
  }
}
