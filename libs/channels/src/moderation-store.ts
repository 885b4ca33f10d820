/**
 * Channel memberships and bans as stored: each change in its own transaction, with the caller's
 * `audit` inside it (the dashboard records its audit entry there), and pages of each by user id.
 * Every change that changes something records its webhook event (`member.added`, `member.removed`,
 * `member.banned`, `member.unbanned`) in that same transaction, so the event commits or rolls back
 * with the row: every path that changes members or bans (control plane, dashboard, a channel's
 * moderators on the realtime edge) comes through here. What a change means for live sockets (the
 * access announcement, kicks, the live log) is the gateway's (libs/edge/src/moderation/moderation.ts).
 */
import { withTransaction, type Pool, type PoolClient, type Queryable } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { liveBanSql } from '@rtm/auth';
import type { ChannelRole } from '@rtm/rules';
import { recordEvent } from '@rtm/webhooks';

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

/**
 * Adds a member or replaces their role (idempotent upsert). A new member, or a new role, is
 * reported as `member.added`; a PUT of the role they already have reports nothing.
 */
export async function upsertMember(
  pool: Pool,
  environmentId: string,
  channelId: string,
  userId: string,
  role: ChannelRole,
  audit: Audit = noAudit,
): Promise<MemberView> {
  const row = await withTransaction(pool, async (client) => {
    const { row, changed } = await writeMember(client, environmentId, channelId, userId, role);
    if (changed) await recordEvent(client, { environmentId, type: 'member.added', channelId, data: { channelId, userId, role } });
    await audit(client);
    return row;
  });
  return memberOf(channelId, row);
}

/**
 * The membership written, and whether it is new or its role changed. The row is read locked
 * first, so the role it had is the one this change replaces; when there is none, the insert
 * either makes it or meets one a concurrent change committed meanwhile, which is then read again.
 */
async function writeMember(client: PoolClient, environmentId: string, channelId: string, userId: string, role: ChannelRole) {
  const key = [environmentId, channelId, userId];
  for (;;) {
    const held = await client.query<{ role: ChannelRole }>(
      'select role from memberships where environment_id = $1 and channel_id = $2 and user_id = $3 for update',
      key,
    );
    if (held.rows[0]) {
      const { rows } = await client.query<MemberRow>(
        `update memberships set role = $4, updated_at = now() where environment_id = $1 and channel_id = $2 and user_id = $3
         returning user_id, role, created_at, updated_at`,
        [...key, role],
      );
      return { row: rows[0]!, changed: held.rows[0].role !== role };
    }
    const { rows } = await client.query<MemberRow>(
      `insert into memberships (environment_id, channel_id, user_id, role) values ($1, $2, $3, $4)
       on conflict (environment_id, channel_id, user_id) do nothing
       returning user_id, role, created_at, updated_at`,
      [...key, role],
    );
    if (rows[0]) return { row: rows[0], changed: true };
  }
}

/** Removes a member (idempotent); true when they were one, and then `member.removed` with the role they had. */
export function deleteMember(pool: Pool, environmentId: string, channelId: string, userId: string, audit: Audit = noAudit): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ role: ChannelRole }>(
      'delete from memberships where environment_id = $1 and channel_id = $2 and user_id = $3 returning role',
      [environmentId, channelId, userId],
    );
    const removed = rows[0];
    if (removed) await recordEvent(client, { environmentId, type: 'member.removed', channelId, data: { channelId, userId, role: removed.role } });
    await audit(client);
    return removed !== undefined;
  });
}

/** A page of a channel's members, by user id; `after` is the last user id of the previous page. */
export async function listMembers(pool: Queryable, environmentId: string, channelId: string, limit: number, after?: string) {
  const { rows } = await pool.query<MemberRow>(
    `select user_id, role, created_at, updated_at from memberships
     where environment_id = $1 and channel_id = $2 and ($3::text is null or user_id > $3)
     order by user_id limit $4`,
    [environmentId, channelId, after ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return { data: page.map((row) => memberOf(channelId, row)), nextAfter: rows.length > limit ? page[page.length - 1]!.user_id : null };
}

/**
 * Bans a user from a channel (or, with ENVIRONMENT_WIDE, the environment); a ban already there is
 * replaced. Reported as `member.banned`, except when the same live ban (reason and expiry) was
 * already there: that PUT changes nothing a receiver could act on.
 */
export async function upsertBan(
  pool: Pool,
  environmentId: string,
  channelId: string,
  userId: string,
  ban: { reason: string | null; expiresAt: Date | null },
  audit: Audit = noAudit,
): Promise<BanView> {
  const row = await withTransaction(pool, async (client) => {
    const { row, changed } = await writeBan(client, environmentId, channelId, userId, ban);
    if (changed) await recordEvent(client, { environmentId, type: 'member.banned', channelId: eventChannel(channelId), data: banData(row) });
    await audit(client);
    return row;
  });
  return banOf(row);
}

/** The ban written, and whether it differs from a live one already there (read locked first, as writeMember). */
async function writeBan(client: PoolClient, environmentId: string, channelId: string, userId: string, ban: { reason: string | null; expiresAt: Date | null }) {
  const values = [environmentId, channelId, userId, ban.reason, ban.expiresAt];
  for (;;) {
    const held = await client.query<{ reason: string | null; expires_at: Date | null; live: boolean }>(
      `select reason, expires_at, ${liveBanSql()} as live from bans where environment_id = $1 and channel_id = $2 and user_id = $3 for update`,
      [environmentId, channelId, userId],
    );
    const before = held.rows[0];
    if (before) {
      const { rows } = await client.query<BanRow>(
        `update bans set reason = $4, expires_at = $5, created_at = now() where environment_id = $1 and channel_id = $2 and user_id = $3
         returning user_id, channel_id, reason, expires_at, created_at`,
        values,
      );
      const same = before.live && before.reason === ban.reason && before.expires_at?.getTime() === ban.expiresAt?.getTime();
      return { row: rows[0]!, changed: !same };
    }
    const { rows } = await client.query<BanRow>(
      `insert into bans (environment_id, channel_id, user_id, reason, expires_at) values ($1, $2, $3, $4, $5)
       on conflict (environment_id, channel_id, user_id) do nothing
       returning user_id, channel_id, reason, expires_at, created_at`,
      values,
    );
    if (rows[0]) return { row: rows[0], changed: true };
  }
}

/**
 * Lifts a ban (idempotent); true when there was one. A live one lifted is reported as
 * `member.unbanned` with what it was; an expired one had already ended and reports nothing.
 */
export function deleteBan(pool: Pool, environmentId: string, channelId: string, userId: string, audit: Audit = noAudit): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<BanRow & { live: boolean }>(
      `delete from bans where environment_id = $1 and channel_id = $2 and user_id = $3
       returning user_id, channel_id, reason, expires_at, created_at, ${liveBanSql()} as live`,
      [environmentId, channelId, userId],
    );
    const lifted = rows[0];
    if (lifted?.live) await recordEvent(client, { environmentId, type: 'member.unbanned', channelId: eventChannel(channelId), data: banData(lifted) });
    await audit(client);
    return lifted !== undefined;
  });
}

/** An event's channel: none for an environment-wide ban. */
const eventChannel = (channelId: string): string | null => (channelId === ENVIRONMENT_WIDE ? null : channelId);

/** A ban event's `data`: the ban as the catalogue states it (no `createdAt`). */
function banData(row: BanRow) {
  const { userId, channelId, reason, expiresAt } = banOf(row);
  return { userId, channelId, reason, expiresAt };
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
export async function listBans(pool: Queryable, environmentId: string, channelId: string, limit: number, after?: string) {
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
