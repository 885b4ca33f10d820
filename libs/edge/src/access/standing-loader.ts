/**
 * Users' standings on channels (bans, access, namespace, role), read in batches (batched-reads.ts):
 * one query per environment for every lookup of a turn, or asked while earlier reads were running
 * (up to MAX_PAIRS pairs each). Why: 10,000 sockets subscribing at once (a gateway restart moves
 * them all) otherwise queue 10,000 queries on a pool of 20 connections, and the queue outlasts the
 * pool's wait: subscribes were refused and retried for minutes.
 * Guarantees: each lookup gets the row of its own (channel, user) pair, read at or after the
 * moment it was asked; a failed query fails exactly the lookups it carried.
 */
import type { Pool } from '@rtm/db';
import { standingsOf } from '@rtm/channels';
import { standingOf, type Standing } from './channel-access.ts';
import { BatchedReads } from './batched-reads.ts';

const MAX_PAIRS = 1_000;

export class StandingLoader {
  readonly #reads: BatchedReads<{ channelId: string; userId: string }, Standing>;

  constructor(pool: Pool) {
    const key = (channelId: string, userId: string) => `${channelId}\u0000${userId}`;
    this.#reads = new BatchedReads(
      async (environmentId, asks) => {
        const pairs = new Map<string, { channelId: string; userId: string }>();
        for (const ask of asks) pairs.set(key(ask.channelId, ask.userId), ask);
        const rows = await standingsOf(pool, environmentId, [...pairs.values()]);
        const byPair = new Map(rows.map((row) => [key(row.channel_id, row.user_id), row]));
        return asks.map((ask) => {
          const row = byPair.get(key(ask.channelId, ask.userId));
          if (!row) throw new Error('no standing row for a requested pair');
          return standingOf(row);
        });
      },
      { maxBatch: MAX_PAIRS },
    );
  }

  load(environmentId: string, channelId: string, userId: string): Promise<Standing> {
    return this.#reads.load(environmentId, { channelId, userId });
  }
}
