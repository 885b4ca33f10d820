import { ServiceError } from '@rtm/errors';
import type { Pool } from '@rtm/db';
import type { GatewayDeps } from '../deps.ts';
import type { UserAuth } from '../auth/authenticate.ts';
import { accessCacheOf } from './access-cache.ts';

export type ChannelAction = 'read' | 'publish';
export type Access = 'open' | 'members';

/**
 * Whether a user may read (history, roster, subscribe) or publish on a channel. Bans always win
 * (environment-wide or on the channel, unless expired); then an `open` channel admits any user of
 * the environment and a `members` channel only its members. The channel's own `access` overrides
 * the environment's deployed default. Throws `banned` or `forbidden`. Decisions are cached per
 * gateway (see AccessCache); every API change to membership, bans or access invalidates them.
 */
export async function checkChannelAccess(
  deps: GatewayDeps,
  auth: UserAuth,
  channelId: string,
  _action: ChannelAction,
): Promise<void> {
  await accessCacheOf(deps).check(auth.environmentId, channelId, auth.userId, () =>
    checkUserChannelAccess(deps.pool, auth.environmentId, auth.userId, channelId),
  );
}

/** The same rule by ids, for re-checking a live socket after a membership or access change. */
export async function checkUserChannelAccess(
  pool: Pool,
  environmentId: string,
  userId: string,
  channelId: string,
): Promise<void> {
  const { rows } = await pool.query<{ banned: boolean; ban_reason: string | null; access: string; member: boolean }>(
    `select
       exists (select 1 from bans b where b.environment_id = $1 and b.user_id = $3 and b.channel_id in ('', $2)
               and (b.expires_at is null or b.expires_at > now())) as banned,
       (select b.reason from bans b where b.environment_id = $1 and b.user_id = $3 and b.channel_id in ('', $2)
               and (b.expires_at is null or b.expires_at > now()) limit 1) as ban_reason,
       coalesce((select c.access from channels c where c.environment_id = $1 and c.id = $2),
                (select e.default_access from environments e where e.id = $1), 'open') as access,
       exists (select 1 from memberships m where m.environment_id = $1 and m.channel_id = $2 and m.user_id = $3) as member`,
    [environmentId, channelId, userId],
  );
  const row = rows[0]!;
  if (row.banned) throw new ServiceError('banned', row.ban_reason ?? undefined);
  if (row.access === 'members' && !row.member) throw new ServiceError('forbidden', 'not a member of this channel');
}

/**
 * The same rule for many (channel, user) pairs of one environment in one query: the refusal of
 * each pair that may no longer read, keyed `channelId \u0000 userId`. For re-checking the open
 * sockets of an environment when its access changes (a config deploy, a channel's access).
 */
export async function refusalsOf(
  pool: Pool,
  environmentId: string,
  pairs: readonly { channelId: string; userId: string }[],
): Promise<Map<string, ServiceError>> {
  const refusals = new Map<string, ServiceError>();
  for (let start = 0; start < pairs.length; start += 1000) {
    const chunk = pairs.slice(start, start + 1000);
    const { rows } = await pool.query<{ channel_id: string; user_id: string; ban_reason: string | null; banned: boolean; access: string; member: boolean }>(
      `select p.channel_id, p.user_id,
         exists (select 1 from bans b where b.environment_id = $1 and b.user_id = p.user_id and b.channel_id in ('', p.channel_id)
                 and (b.expires_at is null or b.expires_at > now())) as banned,
         (select b.reason from bans b where b.environment_id = $1 and b.user_id = p.user_id and b.channel_id in ('', p.channel_id)
                 and (b.expires_at is null or b.expires_at > now()) limit 1) as ban_reason,
         coalesce((select c.access from channels c where c.environment_id = $1 and c.id = p.channel_id),
                  (select e.default_access from environments e where e.id = $1), 'open') as access,
         exists (select 1 from memberships m where m.environment_id = $1 and m.channel_id = p.channel_id and m.user_id = p.user_id) as member
       from unnest($2::text[], $3::text[]) as p(channel_id, user_id)`,
      [environmentId, chunk.map((pair) => pair.channelId), chunk.map((pair) => pair.userId)],
    );
    for (const row of rows) {
      const key = `${row.channel_id}\u0000${row.user_id}`;
      if (row.banned) refusals.set(key, new ServiceError('banned', row.ban_reason ?? undefined));
      else if (row.access === 'members' && !row.member) refusals.set(key, new ServiceError('forbidden', 'not a member of this channel'));
    }
  }
  return refusals;
}

/** The channel's effective access: its own setting, else the environment's deployed default. */
export async function channelAccessOf(pool: Pool, environmentId: string, channelId: string): Promise<Access> {
  const { rows } = await pool.query<{ access: Access }>(
    `select coalesce((select c.access from channels c where c.environment_id = $1 and c.id = $2),
                     (select e.default_access from environments e where e.id = $1), 'open') as access`,
    [environmentId, channelId],
  );
  return rows[0]!.access;
}
