import type { Pool } from '@rtm/db';
import { MAX_TOKEN_LIFETIME_SECONDS } from './user-token.ts';

/**
 * One revocation as the bus carries it: a single token (`jti`) or every token of a user issued
 * before `validAfterMs`. `expiresAtMs`: when the revocation can be forgotten (no token it refuses
 * can still be unexpired).
 */
export type Revocation =
  | { environmentId: string; jti: string; expiresAtMs: number }
  | { environmentId: string; userId: string; validAfterMs: number; expiresAtMs: number }
  /** Keys that stopped verifying (rotated out without grace, removed): no cache entry, only sockets to close. */
  | { environmentId: string; keyIds: string[]; expiresAtMs: number };

/** A revocation must outlive every token it refuses: the longest lifetime and a minute of clock skew. */
const REMEMBER_MS = (MAX_TOKEN_LIFETIME_SECONDS + 60) * 1000;

interface Entry {
  jtis: Map<string, number>;
  cutoffs: Map<string, { validAfterMs: number; expiresAtMs: number }>;
  expires: number;
}

export function encodeRevocation(revocation: Revocation): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(revocation));
}

export function decodeRevocation(data: Uint8Array): Revocation | null {
  try {
    const value = JSON.parse(new TextDecoder().decode(data)) as Record<string, unknown>;
    if (typeof value.environmentId !== 'string' || typeof value.expiresAtMs !== 'number') return null;
    if (typeof value.jti === 'string') return { environmentId: value.environmentId, jti: value.jti, expiresAtMs: value.expiresAtMs };
    if (Array.isArray(value.keyIds) && value.keyIds.every((id) => typeof id === 'string')) {
      return { environmentId: value.environmentId, keyIds: value.keyIds as string[], expiresAtMs: value.expiresAtMs };
    }
    if (typeof value.userId === 'string' && typeof value.validAfterMs === 'number') {
      return { environmentId: value.environmentId, userId: value.userId, validAfterMs: value.validAfterMs, expiresAtMs: value.expiresAtMs };
    }
    return null;
  } catch {
    return null;
  }
}

/** Whether a revocation refuses a token of this user, id and issue time. */
export function refuses(
  revocation: Revocation,
  token: { environmentId: string; userId: string; tokenId: string; issuedAtMs: number; keyId?: string },
): boolean {
  if (revocation.environmentId !== token.environmentId) return false;
  if ('jti' in revocation) return revocation.jti === token.tokenId;
  if ('keyIds' in revocation) return token.keyId !== undefined && revocation.keyIds.includes(token.keyId);
  return revocation.userId === token.userId && token.issuedAtMs < revocation.validAfterMs;
}

/**
 * Revoked user tokens: written to Postgres (so a restarted gateway knows them), cached per
 * environment (one query per environment per `ttlMs`, not one per request), and updated at once by
 * the revocations every gateway receives over the bus (`apply`). A load racing a revocation keeps
 * it: revocations that arrive while an environment loads are applied to the loaded entry.
 */
export class TokenRevocations {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, { promise: Promise<Entry>; arrived: Revocation[] }>();
  private readonly pool: Pool;
  private readonly ttlMs: number;

  constructor(pool: Pool, ttlMs: number) {
    this.pool = pool;
    this.ttlMs = ttlMs;
  }

  /** Revokes one token by its id. Also sweeps the environment's expired revocations. */
  async revokeToken(environmentId: string, jti: string): Promise<Revocation> {
    const expiresAtMs = Date.now() + REMEMBER_MS;
    await this.pool.query(
      `insert into revoked_tokens (environment_id, jti, expires_at) values ($1, $2, to_timestamp($3 / 1000.0))
       on conflict (environment_id, jti) do update set expires_at = greatest(revoked_tokens.expires_at, excluded.expires_at)`,
      [environmentId, jti, expiresAtMs],
    );
    await this.sweep(environmentId);
    const revocation: Revocation = { environmentId, jti, expiresAtMs };
    this.apply(revocation);
    return revocation;
  }

  /** Revokes every token of a user issued before now (to the millisecond). */
  async revokeUser(environmentId: string, userId: string): Promise<Revocation> {
    const validAfterMs = Date.now();
    const expiresAtMs = validAfterMs + REMEMBER_MS;
    await this.pool.query(
      `insert into user_token_cutoffs (environment_id, user_id, valid_after, expires_at)
       values ($1, $2, to_timestamp($3 / 1000.0), to_timestamp($4 / 1000.0))
       on conflict (environment_id, user_id) do update
         set valid_after = greatest(user_token_cutoffs.valid_after, excluded.valid_after),
             expires_at = greatest(user_token_cutoffs.expires_at, excluded.expires_at)`,
      [environmentId, userId, validAfterMs, expiresAtMs],
    );
    await this.sweep(environmentId);
    const revocation: Revocation = { environmentId, userId, validAfterMs, expiresAtMs };
    this.apply(revocation);
    return revocation;
  }

  /** Deletes revocations whose tokens have all expired (rare writes: swept on each revocation). */
  async sweep(environmentId?: string): Promise<number> {
    const where = environmentId === undefined ? '' : 'and environment_id = $1';
    const params = environmentId === undefined ? [] : [environmentId];
    const a = await this.pool.query(`delete from revoked_tokens where expires_at < now() ${where}`, params);
    const b = await this.pool.query(`delete from user_token_cutoffs where expires_at < now() ${where}`, params);
    return (a.rowCount ?? 0) + (b.rowCount ?? 0);
  }

  /** A revocation made here or on another gateway: effective at once, without a query. */
  apply(revocation: Revocation): void {
    this.loading.get(revocation.environmentId)?.arrived.push(revocation);
    const entry = this.entries.get(revocation.environmentId);
    if (entry) applyTo(entry, revocation);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Whether a verified token has been revoked (by its id, or by its user's cutoff). */
  async isRevoked(token: { environmentId: string; userId: string; tokenId: string; issuedAtMs: number }): Promise<boolean> {
    const entry = await this.entry(token.environmentId);
    const now = Date.now();
    const revokedUntil = entry.jtis.get(token.tokenId);
    if (revokedUntil !== undefined && revokedUntil > now) return true;
    const cutoff = entry.cutoffs.get(token.userId);
    return cutoff !== undefined && cutoff.expiresAtMs > now && token.issuedAtMs < cutoff.validAfterMs;
  }

  private async entry(environmentId: string): Promise<Entry> {
    const hit = this.entries.get(environmentId);
    if (hit && hit.expires > Date.now()) return hit;
    const pending = this.loading.get(environmentId);
    if (pending) return pending.promise;
    const arrived: Revocation[] = [];
    const promise = this.load(environmentId).then(
      (entry) => {
        for (const revocation of arrived) applyTo(entry, revocation);
        if (this.entries.size > 10_000) this.entries.clear();
        this.entries.set(environmentId, entry);
        this.loading.delete(environmentId);
        return entry;
      },
      (error: unknown) => {
        this.loading.delete(environmentId);
        throw error;
      },
    );
    this.loading.set(environmentId, { promise, arrived });
    return promise;
  }

  private async load(environmentId: string): Promise<Entry> {
    const expires = Date.now() + this.ttlMs;
    const [tokens, cutoffs] = await Promise.all([
      this.pool.query<{ jti: string; expires_ms: string }>(
        `select jti, (extract(epoch from expires_at) * 1000)::bigint as expires_ms
         from revoked_tokens where environment_id = $1 and expires_at > now()`,
        [environmentId],
      ),
      this.pool.query<{ user_id: string; valid_after_ms: string; expires_ms: string }>(
        `select user_id, (extract(epoch from valid_after) * 1000)::bigint as valid_after_ms,
                (extract(epoch from expires_at) * 1000)::bigint as expires_ms
         from user_token_cutoffs where environment_id = $1 and expires_at > now()`,
        [environmentId],
      ),
    ]);
    const entry: Entry = { jtis: new Map(), cutoffs: new Map(), expires };
    for (const row of tokens.rows) entry.jtis.set(row.jti, Number(row.expires_ms));
    for (const row of cutoffs.rows) {
      entry.cutoffs.set(row.user_id, { validAfterMs: Number(row.valid_after_ms), expiresAtMs: Number(row.expires_ms) });
    }
    return entry;
  }
}

function applyTo(entry: Entry, revocation: Revocation): void {
  // a retired key is refused by the key lookup itself; nothing to remember here
  if ('keyIds' in revocation) return;
  if ('jti' in revocation) {
    entry.jtis.set(revocation.jti, Math.max(entry.jtis.get(revocation.jti) ?? 0, revocation.expiresAtMs));
    return;
  }
  const current = entry.cutoffs.get(revocation.userId);
  if (!current || current.validAfterMs < revocation.validAfterMs) {
    entry.cutoffs.set(revocation.userId, { validAfterMs: revocation.validAfterMs, expiresAtMs: revocation.expiresAtMs });
  }
}
