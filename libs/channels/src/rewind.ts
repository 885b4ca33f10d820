/**
 * A subscription's `rewind` (@rtm/schemas rewind.ts) resolved to the `since` its replay starts
 * after, at or below the subscription's snapshot (the channel's last seq when it joined the feed):
 *
 * - `{count: N}`: just below the Nth-last message at or below the snapshot that the viewer may
 *   see (the `to` rule of readMessages: messages addressed to others do not count; tombstones
 *   do, since the replay sends them). Fewer than N: 0, the whole channel.
 * - `{ms}`: the seq of the last message at or below the snapshot published before `now - ms`
 *   (0 when there is none), so the replay starts at the first message published since. It is a
 *   binary search over seq on the primary key, one index probe per halving (at most ~53, in one
 *   statement), with no index on `ts`: ts grows with seq (the channel's single owner stamps
 *   each message as it commits it), and were it ever out of order across an owner change, the
 *   cut would only move by those few messages; every message above the returned seq is replayed
 *   whatever its ts, so the hand-off to live frames stays without gap or duplicate.
 */
import type { Queryable } from '@rtm/db';

export type RewindTo = { count: number } | { ms: number };

export interface RewindRange {
  /** The subscription's snapshot: nothing above it is looked at. */
  snapshot: number;
  /** The user the `to` rule applies to. */
  viewer: string;
  /** Milliseconds since the epoch that a duration counts back from. */
  now: number;
}

/** The `since` a rewind starts from (always at or below `range.snapshot`). */
export async function rewindSince(db: Queryable, environmentId: string, channelId: string, rewind: RewindTo, range: RewindRange): Promise<number> {
  if (range.snapshot <= 0) return 0;
  if ('count' in rewind) {
    const { rows } = await db.query<{ seq: number }>(
      `select m.seq
       from messages m join channels c on c.pk = m.channel_pk
       where c.environment_id = $1 and c.id = $2 and m.seq <= $3
         and (m."to" is null or $4::text = any(m."to") or m.sender_id = $4::text)
       order by m.seq desc offset $5 limit 1`,
      [environmentId, channelId, range.snapshot, range.viewer, rewind.count - 1],
    );
    return rows[0] ? rows[0].seq - 1 : 0;
  }
  // invariant: the answer is in [lo, hi); every message in [hi, snapshot] was published at or
  // after the cut; lo is 0 or a message published before it
  const { rows } = await db.query<{ since: number }>(
    `with recursive channel as (
       select pk from channels where environment_id = $1 and id = $2
     ), search(lo, hi) as (
       select 0::bigint, $3::bigint + 1
       union all
       select case when probe.ts < $4 then probe.seq else s.lo end,
              case when probe.ts < $4 then s.hi else (s.lo + s.hi) / 2 end
       from search s
       left join lateral (
         select m.seq, m.ts from messages m, channel
         where m.channel_pk = channel.pk and m.seq >= (s.lo + s.hi) / 2 and m.seq < s.hi
         order by m.seq limit 1
       ) probe on true
       where s.hi - s.lo > 1
     )
     select lo as since from search where hi - lo <= 1`,
    [environmentId, channelId, range.snapshot, range.now - rewind.ms],
  );
  return rows[0]?.since ?? 0;
}
