import type { Pool } from '@rtm/db';
import { liveBanSql } from '@rtm/auth';

// the ban condition is written once, in @rtm/auth (channel-sql.ts), beside the rest of the channel rule in SQL
export { liveBanSql, bansBarringSql } from '@rtm/auth';

export interface BanRecord {
  reason: string | null;
  expiresAt: Date | null;
}

/**
 * The user's live environment-wide ban, if any (expired bans do not count). The look-ups that
 * start in one event-loop turn are read together, one query per environment and 1,000 users (a
 * storm of sockets opening, each checked once, otherwise costs a query each).
 */
export function environmentBan(pool: Pool, environmentId: string, userId: string): Promise<BanRecord | null> {
  let loader = banLoaders.get(pool);
  if (!loader) banLoaders.set(pool, (loader = new BanLoader(pool)));
  return loader.load(environmentId, userId);
}

const MAX_USERS = 1_000;
const banLoaders = new WeakMap<Pool, BanLoader>();

interface WaitingBan {
  userId: string;
  resolve: (ban: BanRecord | null) => void;
  reject: (error: unknown) => void;
}

class BanLoader {
  readonly #pool: Pool;
  #turn = new Map<string, WaitingBan[]>();
  #scheduled = false;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  load(environmentId: string, userId: string): Promise<BanRecord | null> {
    return new Promise((resolve, reject) => {
      const list = this.#turn.get(environmentId);
      if (list) list.push({ userId, resolve, reject });
      else this.#turn.set(environmentId, [{ userId, resolve, reject }]);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    const turn = this.#turn;
    this.#turn = new Map();
    this.#scheduled = false;
    for (const [environmentId, waiting] of turn) {
      for (let at = 0; at < waiting.length; at += MAX_USERS) void this.#read(environmentId, waiting.slice(at, at + MAX_USERS));
    }
  }

  async #read(environmentId: string, waiting: WaitingBan[]): Promise<void> {
    try {
      const { rows } = await this.#pool.query<{ user_id: string; reason: string | null; expires_at: Date | null }>(
        `select user_id, reason, expires_at from bans
         where environment_id = $1 and channel_id = '' and user_id = any($2::text[]) and ${liveBanSql()}`,
        [environmentId, [...new Set(waiting.map((w) => w.userId))]],
      );
      const bans = new Map(rows.map((row) => [row.user_id, { reason: row.reason, expiresAt: row.expires_at }]));
      for (const w of waiting) w.resolve(bans.get(w.userId) ?? null);
    } catch (error) {
      for (const w of waiting) w.reject(error);
    }
  }
}
