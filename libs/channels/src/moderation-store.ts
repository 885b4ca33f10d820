/**
 * Channel memberships and bans as stored: each change in its own transaction, with the caller's
 * `audit` inside it (the dashboard records its audit entry there), and pages of each by user id.
 * What a change means for live sockets (the access announcement, kicks, the live log) is the
 * gateway's (apps/gateway/src/moderation/moderation.ts).
 */
import { withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { liveBanSql, type ChannelRole } from '@rtm/auth';

/** channel_id '' is the environment-wide ban (schema: channel ids are never empty). */
export const ENVIRONMENT_WIDE = '';

export type Audit = (client: PoolClient) => Promise<void>;
const noAudit: Audit = async () => {};

interface MemberRow {
  user_id: string;
  role: ChannelRole;
  created_at: Date;
  updated_at: Date;
}

interface BanRow {
  user_id: string;
  channel_id: string;
  reason: string | null;
  expires_at: Date | null;
  created_at: Date;
}

const memberOf = (channelId: string, row: MemberRow) => ({
  channelId,
  userId: row.user_id,
  role: row.role,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const banOf = (row: BanRow) => ({
  userId: row.user_id,
  channelId: row.channel_id === ENVIRONMENT_WIDE ? null : row.channel_id,
  reason: row.reason,
  expiresAt: row.expires_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

export type MemberView = ReturnType<typeof memberOf>;
export type BanView = ReturnType<typeof banOf>;

/** Adds a member or replaces their role (idempotent upsert). */
export async function upsertMember(pool: Pool, environmentId: string, channelId: string, userId: string, role: ChannelRole, audit: Audit = noAudit): Promise<MemberView> {
  const row = await withTransaction(pool, async (client) => {
    const { rows } = await client.query<MemberRow>(
      `insert into memberships (environment_id, channel_id, user_id, role) values ($1, $2, $3, $4)
       on conflict (environment_id, channel_id, user_id) do update set role = excluded.role, updated_at = now()
       returning user_id, role, created_at, updated_at`,
      [environmentId, channelId, userId, role],
    );
    await audit(client);
    return rows[0]!;
  });
  return memberOf(channelId, row);
}

/** Removes a member (idempotent); true when they were one. */
export function deleteMember(pool: Pool, environmentId: string, channelId: string, userId: string, audit: Audit = noAudit): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rowCount } = await client.query('delete from memberships where environment_id = $1 and channel_id = $2 and user_id = $3', [
      environmentId,
      channelId,
      userId,
    ]);
    await audit(client);
    return (rowCount ?? 0) > 0;
  });
}

/** A page of a channel's members, by user id; `after` is the last user id of the previous page. */
export async function listMembers(pool: Pool, environmentId: string, channelId: string, limit: number, after?: string) {
  const { rows } = await pool.query<MemberRow>(
    `select user_id, role, created_at, updated_at from memberships
     where environment_id = $1 and channel_id = $2 and ($3::text is null or user_id > $3)
     order by user_id limit $4`,
    [environmentId, channelId, after ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return { data: page.map((row) => memberOf(channelId, row)), nextAfter: rows.length > limit ? page[page.length - 1]!.user_id : null };
}

/** Bans a user from a channel (or, with ENVIRONMENT_WIDE, the environment); a ban already there is replaced. */
export async function upsertBan(
  pool: Pool,
  environmentId: string,
  channelId: string,
  userId: string,
  ban: { reason: string | null; expiresAt: Date | null },
  audit: Audit = noAudit,
): Promise<BanView> {
  const row = await withTransaction(pool, async (client) => {
    const { rows } = await client.query<BanRow>(
      `insert into bans (environment_id, channel_id, user_id, reason, expires_at) values ($1, $2, $3, $4, $5)
       on conflict (environment_id, channel_id, user_id)
       do update set reason = excluded.reason, expires_at = excluded.expires_at, created_at = now()
       returning user_id, channel_id, reason, expires_at, created_at`,
      [environmentId, channelId, userId, ban.reason, ban.expiresAt],
    );
    await audit(client);
    return rows[0]!;
  });
  return banOf(row);
}

/** Lifts a ban (idempotent); true when there was one. */
export function deleteBan(pool: Pool, environmentId: string, channelId: string, userId: string, audit: Audit = noAudit): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rowCount } = await client.query('delete from bans where environment_id = $1 and channel_id = $2 and user_id = $3', [
      environmentId,
      channelId,
      userId,
    ]);
    await audit(client);
    return (rowCount ?? 0) > 0;
  });
}

/** A live (unexpired) ban, or 404. */
export async function findBan(pool: Pool, environmentId: string, channelId: string, userId: string): Promise<BanView> {
  const { rows } = await pool.query<BanRow>(
    `select user_id, channel_id, reason, expires_at, created_at from bans
     where environment_id = $1 and channel_id = $2 and user_id = $3 and ${liveBanSql()}`,
    [environmentId, channelId, userId],
  );
  if (!rows[0]) throw new ServiceError('not_found', 'no live ban for this user');
  return banOf(rows[0]);
}

/** A page of the live bans of a channel (or ENVIRONMENT_WIDE), by user id. */
export async function listBans(pool: Pool, environmentId: string, channelId: string, limit: number, after?: string) {
  const { rows } = await pool.query<BanRow>(
    `select user_id, channel_id, reason, expires_at, created_at from bans
     where environment_id = $1 and channel_id = $2 and ${liveBanSql()}
       and ($3::text is null or user_id > $3)
     order by user_id limit $4`,
    [environmentId, channelId, after ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return { data: page.map(banOf), nextAfter: rows.length > limit ? page[page.length - 1]!.user_id : null };
}

/** The live environment-wide bans among `userIds` (one query; ids may repeat), by user id. */
export async function environmentBansOf(
  pool: Pool,
  environmentId: string,
  userIds: readonly string[],
): Promise<Map<string, { reason: string | null; expiresAt: Date | null }>> {
  const { rows } = await pool.query<{ user_id: string; reason: string | null; expires_at: Date | null }>(
    `select user_id, reason, expires_at from bans
     where environment_id = $1 and channel_id = '' and user_id = any($2::text[]) and ${liveBanSql()}`,
    [environmentId, [...new Set(userIds)]],
  );
  return new Map(rows.map((row) => [row.user_id, { reason: row.reason, expiresAt: row.expires_at }]));
}
