/**
 * Channel membership and bans: the one implementation behind the API-key routes
 * (routes/members.ts, routes/bans.ts) and the dashboard's (routes/dashboard/moderation.ts).
 * Every change announces the access change to every gateway, closes the sockets that lost
 * access (4403) and writes the environment's live log; `audit`, when given, runs inside the
 * change's transaction (the dashboard records its audit entry there).
 */
import { withTransaction, type PoolClient } from '@rtm/db';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import type { GatewayDeps } from '../deps.ts';
import { kickFromChannel, kickFromEnvironment } from '../kicks/kicks.ts';
import { announceAccessChange } from '../access/access-cache.ts';
import { liveBanSql } from '../access/bans.ts';

/** channel_id '' is the environment-wide ban (schema: channel ids are never empty). */
export const ENVIRONMENT_WIDE = '';

export type Audit = (client: PoolClient) => Promise<void>;
export type MemberRole = 'member' | 'moderator' | 'readonly';

interface MemberRow {
  user_id: string;
  role: MemberRole;
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

const noAudit: Audit = async () => {};

/** Adds a member or replaces their role (idempotent upsert). */
export async function putMember(deps: GatewayDeps, environmentId: string, channelId: string, userId: string, role: MemberRole, audit: Audit = noAudit) {
  const row = await withTransaction(deps.pool, async (client) => {
    const { rows } = await client.query<MemberRow>(
      `insert into memberships (environment_id, channel_id, user_id, role) values ($1, $2, $3, $4)
       on conflict (environment_id, channel_id, user_id) do update set role = excluded.role, updated_at = now()
       returning user_id, role, created_at, updated_at`,
      [environmentId, channelId, userId, role],
    );
    await audit(client);
    return rows[0]!;
  });
  await announceAccessChange(deps, environmentId);
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'member.put', { channelId, userId, role });
  return memberOf(channelId, row);
}

/** Removes a member (idempotent) and closes their sockets on the channel with 4403. */
export async function removeMember(deps: GatewayDeps, environmentId: string, channelId: string, userId: string, audit: Audit = noAudit) {
  const wasMember = await withTransaction(deps.pool, async (client) => {
    const { rowCount } = await client.query(
      'delete from memberships where environment_id = $1 and channel_id = $2 and user_id = $3',
      [environmentId, channelId, userId],
    );
    await audit(client);
    return (rowCount ?? 0) > 0;
  });
  await announceAccessChange(deps, environmentId);
  kickFromChannel(deps, environmentId, channelId, userId, 'removed from the channel', 'forbidden');
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'member.removed', { channelId, userId, wasMember });
  return wasMember;
}

/** A page of a channel's members, by user id; `after` is the last user id of the previous page. */
export async function listMembers(deps: GatewayDeps, environmentId: string, channelId: string, limit: number, after?: string) {
  const { rows } = await deps.pool.query<MemberRow>(
    `select user_id, role, created_at, updated_at from memberships
     where environment_id = $1 and channel_id = $2 and ($3::text is null or user_id > $3)
     order by user_id limit $4`,
    [environmentId, channelId, after ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return { data: page.map((row) => memberOf(channelId, row)), nextAfter: rows.length > limit ? page[page.length - 1]!.user_id : null };
}

/** Bans a user from a channel (or, with ENVIRONMENT_WIDE, the environment) and closes their sockets. */
export async function putBan(
  deps: GatewayDeps,
  environmentId: string,
  channelId: string,
  userId: string,
  body: { reason?: string; expiresAt?: string } | undefined,
  audit: Audit = noAudit,
) {
  const expiresAt = body?.expiresAt === undefined ? null : new Date(body.expiresAt);
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw new ServiceError('invalid_request', 'body.expiresAt: must be in the future');
  }
  const row = await withTransaction(deps.pool, async (client) => {
    const { rows } = await client.query<BanRow>(
      `insert into bans (environment_id, channel_id, user_id, reason, expires_at) values ($1, $2, $3, $4, $5)
       on conflict (environment_id, channel_id, user_id)
       do update set reason = excluded.reason, expires_at = excluded.expires_at, created_at = now()
       returning user_id, channel_id, reason, expires_at, created_at`,
      [environmentId, channelId, userId, body?.reason ?? null, expiresAt],
    );
    await audit(client);
    return rows[0]!;
  });
  await announceAccessChange(deps, environmentId);
  const reason = body?.reason ?? 'banned';
  if (channelId === ENVIRONMENT_WIDE) kickFromEnvironment(deps, environmentId, userId, reason);
  else kickFromChannel(deps, environmentId, channelId, userId, reason, 'banned');
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'ban.put', {
    channelId: channelId === ENVIRONMENT_WIDE ? null : channelId,
    userId,
    reason: body?.reason ?? null,
    expiresAt: expiresAt?.toISOString() ?? null,
  });
  return banOf(row);
}

/** Lifts a ban (idempotent). */
export async function removeBan(deps: GatewayDeps, environmentId: string, channelId: string, userId: string, audit: Audit = noAudit) {
  const wasBanned = await withTransaction(deps.pool, async (client) => {
    const { rowCount } = await client.query(
      'delete from bans where environment_id = $1 and channel_id = $2 and user_id = $3',
      [environmentId, channelId, userId],
    );
    await audit(client);
    return (rowCount ?? 0) > 0;
  });
  await announceAccessChange(deps, environmentId);
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'ban.removed', {
    channelId: channelId === ENVIRONMENT_WIDE ? null : channelId,
    userId,
    wasBanned,
  });
  return wasBanned;
}

/** A live (unexpired) ban, or 404. */
export async function getBan(deps: GatewayDeps, environmentId: string, channelId: string, userId: string) {
  const { rows } = await deps.pool.query<BanRow>(
    `select user_id, channel_id, reason, expires_at, created_at from bans
     where environment_id = $1 and channel_id = $2 and user_id = $3 and ${liveBanSql()}`,
    [environmentId, channelId, userId],
  );
  if (!rows[0]) throw new ServiceError('not_found', 'no live ban for this user');
  return banOf(rows[0]);
}

/** A page of the live bans of a channel (or ENVIRONMENT_WIDE), by user id. */
export async function listBans(deps: GatewayDeps, environmentId: string, channelId: string, limit: number, after?: string) {
  const { rows } = await deps.pool.query<BanRow>(
    `select user_id, channel_id, reason, expires_at, created_at from bans
     where environment_id = $1 and channel_id = $2 and ${liveBanSql()}
       and ($3::text is null or user_id > $3)
     order by user_id limit $4`,
    [environmentId, channelId, after ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return { data: page.map(banOf), nextAfter: rows.length > limit ? page[page.length - 1]!.user_id : null };
}
