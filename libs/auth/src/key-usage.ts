import type { Pool } from '@rtm/db';

/** How often one process records a key's use at most. */
export const KEY_USAGE_INTERVAL_MS = 60_000;

/**
 * Records when an API key was last used, cheaply: each process writes a key's `last_used_at` at
 * most once per `intervalMs` (the first use after that writes at once, in the background, never
 * delaying the request), and the write itself changes the row only when the stored time is older
 * than that, so many gateways add at most one row version per key and minute between them. The
 * shown time is therefore up to a minute behind the latest use.
 */
export class KeyUsage {
  private readonly written = new Map<string, number>();
  private readonly write: (keyId: string) => Promise<unknown>;
  private readonly intervalMs: number;
  private readonly clock: () => number;

  constructor(write: (keyId: string) => Promise<unknown>, options: { intervalMs?: number; clock?: () => number } = {}) {
    this.write = write;
    this.intervalMs = options.intervalMs ?? KEY_USAGE_INTERVAL_MS;
    this.clock = options.clock ?? Date.now;
  }

  /** Writes through `pool`; a failed write is dropped (the next use after the interval retries). */
  static forPool(pool: Pool, intervalMs = KEY_USAGE_INTERVAL_MS): KeyUsage {
    return new KeyUsage(
      (keyId) =>
        pool.query(
          `update api_keys set last_used_at = now()
           where id = $1 and (last_used_at is null or last_used_at < now() - $2::bigint * interval '1 millisecond')`,
          [keyId, intervalMs],
        ),
      { intervalMs },
    );
  }

  /** A use of `keyId`; true when it is written now. */
  record(keyId: string): boolean {
    const now = this.clock();
    const last = this.written.get(keyId);
    if (last !== undefined && now - last < this.intervalMs) return false;
    if (this.written.size >= 100_000) this.prune(now);
    this.written.set(keyId, now);
    this.write(keyId).catch(() => {
      // the database is unreachable or shutting down: the next use after the interval tries again
    });
    return true;
  }

  private prune(now: number): void {
    for (const [keyId, at] of this.written) if (now - at >= this.intervalMs) this.written.delete(keyId);
    if (this.written.size >= 100_000) this.written.clear();
  }
}
