/**
 * A channel's members and its access setting, as the roster and the control plane read and set
 * them. Bans bar a member: a live ban on the channel or on the whole environment (@rtm/auth's
 * channel rule in SQL).
 */
import type { Pool, Queryable } from '@rtm/db';
import { bansBarringSql } from '@rtm/auth';
import type { ChannelRole } from '@rtm/rules';

/**
 * Members (and their role) of the channel after `after` in byte order (collate "C", the same as
 * JavaScript's for user ids, which are ASCII), at most `limit` of them and whether more follow;
 * members barred by a live ban are left out.
 */
export async function memberPage(
  pool: Queryable,
  environmentId: string,
  channelId: string,
  page: { after: string; limit: number },
): Promise<{ members: { userId: string; role: ChannelRole }[]; more: boolean }> {
  const { rows } = await pool.query<{ user_id: string; role: ChannelRole }>(
    `select m.user_id, m.role from memberships m
     where m.environment_id = $1 and m.channel_id = $2 and m.user_id collate "C" > $3
       and not exists (select 1 from ${bansBarringSql('$1', 'm.user_id', '$2')})
     order by m.user_id collate "C" limit $4`,
    [environmentId, channelId, page.after, page.limit + 1],
  );
  return { members: rows.slice(0, page.limit).map((row) => ({ userId: row.user_id, role: row.role })), more: rows.length > page.limit };
}

/** Those of `userIds` barred from the channel by a live ban (on it or environment-wide). */
export async function bannedAmong(pool: Queryable, environmentId: string, channelId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const { rows } = await pool.query<{ user_id: string }>(
    `select u.user_id from unnest($3::text[]) as u(user_id)
     where exists (select 1 from ${bansBarringSql('$1', 'u.user_id', '$2')})`,
    [environmentId, channelId, userIds],
  );
  return new Set(rows.map((row) => row.user_id));
}

/** Sets the channel's access override (`open` or `members`), creating the channel when it does not exist yet. */
export async function setChannelAccess(pool: Pool, environmentId: string, channelId: string, access: 'open' | 'members'): Promise<void> {
  await pool.query(
    `insert into channels (environment_id, id, access) values ($1, $2, $3)
     on conflict (environment_id, id) do update set access = excluded.access`,
    [environmentId, channelId, access],
  );
}
