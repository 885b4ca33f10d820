/**
 * What Postgres knows about users on channels, for the access rule (@rtm/auth's `decide`): bans,
 * the channel's own access, the environment's default and namespaces (from its active
 * deployment), the role. Read here as rows; the gateway resolves them into standings and decides
 * (libs/edge/src/access/channel-access.ts).
 */
import type { Queryable } from '@rtm/db';
import { bansBarringSql } from '@rtm/auth';
import type { ChannelAccessMode, ChannelRole, Namespace, PresenceDefaults } from '@rtm/rules';

export interface StandingRow {
  channel_id: string;
  user_id: string;
  banned: boolean;
  ban_reason: string | null;
  own_access: ChannelAccessMode | null;
  default_access: ChannelAccessMode | null;
  namespaces: Namespace[] | null;
  /** The deployed `channels` object: its presence settings are the environment's defaults. */
  channel_defaults: PresenceDefaults | null;
  role: ChannelRole | null;
}

/** One row per (channel, user) pair: bans, the channel's own access, the environment's default and namespaces, the role. */
const STANDING_SQL = `
  select p.channel_id, p.user_id,
    exists (select 1 from ${bansBarringSql('$1', 'p.user_id', 'p.channel_id')}) as banned,
    (select b.reason from ${bansBarringSql('$1', 'p.user_id', 'p.channel_id')} limit 1) as ban_reason,
    (select c.access from channels c where c.environment_id = $1 and c.id = p.channel_id) as own_access,
    e.default_access,
    d.config -> 'namespaces' as namespaces,
    d.config -> 'channels' as channel_defaults,
    (select m.role from memberships m where m.environment_id = $1 and m.channel_id = p.channel_id and m.user_id = p.user_id) as role
  from unnest($2::text[], $3::text[]) as p(channel_id, user_id)
  left join environments e on e.id = $1
  left join config_deployments d on d.id = e.active_deployment_id`;

/** One row per pair (in any order), read in one query. */
export async function standingsOf(pool: Queryable, environmentId: string, pairs: readonly { channelId: string; userId: string }[]): Promise<StandingRow[]> {
  const { rows } = await pool.query<StandingRow>(STANDING_SQL, [environmentId, pairs.map((pair) => pair.channelId), pairs.map((pair) => pair.userId)]);
  return rows;
}

/** The row of one user on one channel (every pair has one: the pairs are the query's rows). */
export async function standingRowOf(pool: Queryable, environmentId: string, userId: string, channelId: string): Promise<StandingRow> {
  const [row] = await standingsOf(pool, environmentId, [{ channelId, userId }]);
  return row!;
}
