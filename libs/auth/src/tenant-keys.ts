import type { Pool } from '@rtm/db';
import type { JWK } from 'jose';
import { JwksCache, type JwksOptions } from './jwks.ts';
import type { TenantKey, TenantTokenAlg } from './tenant-token.ts';

interface Entry<T> {
  value: T;
  expires: number;
}

/** The cache key of an environment's kid (an environment id never holds a newline, so no two pairs share one). */
const registeredKey = (environmentId: string, kid: string) => `${environmentId}\n${kid}`;

export interface RegisteredKey {
  kid: string;
  alg: TenantTokenAlg;
  jwk: JWK;
  createdAt: Date;
}

/**
 * The public keys environments sign their own user tokens with: registered JWKs and JWKS URLs.
 * Key ids are per environment: a lookup is always (environment, kid), so two environments may use
 * the same kid and neither ever sees the other's key. Lookups (unknown kids included) are cached
 * for `ttlMs` per (environment, kid) and forgotten at once for an environment when its keys change
 * (`invalidate`, over the bus like the other credentials); no other environment's entries go.
 */
export class TenantKeys {
  private readonly pool: Pool;
  private readonly ttlMs: number;
  private readonly registered = new Map<string, Entry<TenantKey | null>>();
  private readonly urls = new Map<string, Entry<string | null>>();
  readonly jwks: JwksCache;

  constructor(pool: Pool, ttlMs: number, jwks: JwksOptions) {
    this.pool = pool;
    this.ttlMs = ttlMs;
    this.jwks = new JwksCache(jwks);
  }

  invalidate(environmentId: string): void {
    const prefix = registeredKey(environmentId, '');
    for (const key of this.registered.keys()) if (key.startsWith(prefix)) this.registered.delete(key);
    this.urls.delete(environmentId);
    this.jwks.forget(environmentId);
  }

  clear(): void {
    this.registered.clear();
    this.urls.clear();
  }

  /**
   * The key `kid` of an environment: its registered JWK of that kid first, else its JWKS. Only this
   * environment's keys are ever consulted: another environment holding the same kid changes nothing.
   */
  async find(environmentId: string, kid: string): Promise<TenantKey | null> {
    const key = await this.cached(this.registered, registeredKey(environmentId, kid), async () => {
      const { rows } = await this.pool.query<{ alg: TenantTokenAlg; jwk: JWK }>('select alg, jwk from token_keys where environment_id = $1 and kid = $2', [
        environmentId,
        kid,
      ]);
      const row = rows[0];
      return row ? { kid, environmentId, alg: row.alg, jwk: row.jwk } : null;
    });
    if (key) return key;
    const url = await this.cached(this.urls, environmentId, async () => {
      const { rows } = await this.pool.query<{ url: string }>('select url from token_jwks where environment_id = $1', [environmentId]);
      return rows[0]?.url ?? null;
    });
    return url ? this.jwks.key(environmentId, url, kid) : null;
  }

  private async cached<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = map.get(key);
    if (hit && hit.expires > now) return hit.value;
    const value = await load();
    if (map.size > 50_000) map.clear();
    map.set(key, { value, expires: now + this.ttlMs });
    return value;
  }
}

/** Registers (or replaces) an environment's public key `kid`; other environments' keys of that kid are untouched. */
export async function putTokenKey(pool: Pool, environmentId: string, kid: string, alg: TenantTokenAlg, jwk: JWK): Promise<RegisteredKey> {
  const { rows } = await pool.query<{ created_at: Date }>(
    `insert into token_keys (kid, environment_id, alg, jwk) values ($1, $2, $3, $4)
     on conflict (environment_id, kid) do update set alg = excluded.alg, jwk = excluded.jwk
     returning created_at`,
    [kid, environmentId, alg, JSON.stringify(jwk)],
  );
  return { kid, alg, jwk, createdAt: rows[0]!.created_at };
}

export async function listTokenKeys(pool: Pool, environmentId: string): Promise<{ keys: RegisteredKey[]; jwksUrl: string | null }> {
  const [keys, jwks] = await Promise.all([
    pool.query<{ kid: string; alg: TenantTokenAlg; jwk: JWK; created_at: Date }>(
      'select kid, alg, jwk, created_at from token_keys where environment_id = $1 order by created_at',
      [environmentId],
    ),
    pool.query<{ url: string }>('select url from token_jwks where environment_id = $1', [environmentId]),
  ]);
  return {
    keys: keys.rows.map((row) => ({ kid: row.kid, alg: row.alg, jwk: row.jwk, createdAt: row.created_at })),
    jwksUrl: jwks.rows[0]?.url ?? null,
  };
}

export async function deleteTokenKey(pool: Pool, environmentId: string, kid: string): Promise<boolean> {
  const { rowCount } = await pool.query('delete from token_keys where environment_id = $1 and kid = $2', [environmentId, kid]);
  return (rowCount ?? 0) > 0;
}

export async function setJwksUrl(pool: Pool, environmentId: string, url: string | null): Promise<void> {
  if (url === null) {
    await pool.query('delete from token_jwks where environment_id = $1', [environmentId]);
    return;
  }
  await pool.query(
    `insert into token_jwks (environment_id, url) values ($1, $2)
     on conflict (environment_id) do update set url = excluded.url, updated_at = now()`,
    [environmentId, url],
  );
}
