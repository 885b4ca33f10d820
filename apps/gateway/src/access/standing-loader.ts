/**
 * Users' standings on channels (bans, access, namespace, role), read in batches: the lookups
 * that start in one event-loop turn are read with one query per environment (up to MAX_PAIRS
 * pairs each) instead of one query each. Why: 10,000 sockets subscribing at once (a gateway
 * restart moves them all) otherwise queue 10,000 queries on a pool of 20 connections, and the
 * queue outlasts the pool's wait: subscribes were refused and retried for minutes.
 * Guarantees: each lookup gets the row of its own (channel, user) pair, read at or after the
 * moment it was asked; a failed query fails exactly the lookups it carried.
 */
import type { Pool } from '@rtm/db';
import { standingOf, standingsOf, type Standing } from './channel-access.ts';

const MAX_PAIRS = 1_000;

interface Waiting {
  channelId: string;
  userId: string;
  resolve: (standing: Standing) => void;
  reject: (error: unknown) => void;
}

export class StandingLoader {
  readonly #pool: Pool;
  #turn = new Map<string, Waiting[]>();
  #scheduled = false;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  load(environmentId: string, channelId: string, userId: string): Promise<Standing> {
    return new Promise((resolve, reject) => {
      const list = this.#turn.get(environmentId);
      if (list) list.push({ channelId, userId, resolve, reject });
      else this.#turn.set(environmentId, [{ channelId, userId, resolve, reject }]);
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
      for (let at = 0; at < waiting.length; at += MAX_PAIRS) void this.#read(environmentId, waiting.slice(at, at + MAX_PAIRS));
    }
  }

  async #read(environmentId: string, waiting: Waiting[]): Promise<void> {
    const key = (channelId: string, userId: string) => `${channelId}\u0000${userId}`;
    const pairs = new Map<string, { channelId: string; userId: string }>();
    for (const w of waiting) pairs.set(key(w.channelId, w.userId), { channelId: w.channelId, userId: w.userId });
    try {
      const rows = await standingsOf(this.#pool, environmentId, [...pairs.values()]);
      const byPair = new Map(rows.map((row) => [key(row.channel_id, row.user_id), row]));
      for (const w of waiting) {
        const row = byPair.get(key(w.channelId, w.userId));
        if (row) w.resolve(standingOf(row));
        else w.reject(new Error('no standing row for a requested pair'));
      }
    } catch (error) {
      for (const w of waiting) w.reject(error);
    }
  }
}
