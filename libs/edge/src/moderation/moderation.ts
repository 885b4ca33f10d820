/**
 * Channel membership and bans: the one implementation behind the API-key routes
 * (apps/gateway/src/routes/members.ts, routes/bans.ts) and the dashboard's (routes/dashboard/moderation.ts).
 * The rows are the channel store's (@rtm/channels; reads go there directly); here, what a change
 * means for live sockets: every change announces the access change to every gateway, closes the sockets that
 * lost access (4403) and writes the environment's live log. `audit`, when given, runs inside the
 * change's transaction (the dashboard records its audit entry there).
 */
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import type { ChannelRole } from '@rtm/rules';
import { ENVIRONMENT_WIDE, deleteBan, deleteMember, upsertBan, upsertMember, type Audit } from '@rtm/channels';
import type { EdgeDeps } from '../edge-deps.ts';
import { kickFromChannel, kickFromEnvironment } from '../kicks/kicks.ts';
import { announceAccessChange } from '../access/access-cache.ts';

export { ENVIRONMENT_WIDE, type Audit } from '@rtm/channels';

/** A change's store, and the bus that tells every gateway (access caches, kicks, the live log). */
export type ModerationDeps = Pick<EdgeDeps, 'nc' | 'pool' | 'subjects'>;

/** Adds a member or replaces their role (idempotent upsert). */
export async function putMember(deps: ModerationDeps, environmentId: string, channelId: string, userId: string, role: ChannelRole, audit?: Audit) {
  const member = await upsertMember(deps.pool, environmentId, channelId, userId, role, audit);
  await announceAccessChange(deps, environmentId);
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'member.put', { channelId, userId, role });
  return member;
}

/** Removes a member (idempotent) and closes their sockets on the channel with 4403. */
export async function removeMember(deps: ModerationDeps, environmentId: string, channelId: string, userId: string, audit?: Audit) {
  const wasMember = await deleteMember(deps.pool, environmentId, channelId, userId, audit);
  await announceAccessChange(deps, environmentId);
  kickFromChannel(deps, environmentId, channelId, userId, 'removed from the channel', 'forbidden');
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'member.removed', { channelId, userId, wasMember });
  return wasMember;
}

/** Bans a user from a channel (or, with ENVIRONMENT_WIDE, the environment) and closes their sockets. */
export async function putBan(
  deps: ModerationDeps,
  environmentId: string,
  channelId: string,
  userId: string,
  body: { reason?: string; expiresAt?: string } | undefined,
  audit?: Audit,
) {
  const expiresAt = body?.expiresAt === undefined ? null : new Date(body.expiresAt);
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw new ServiceError('invalid_request', 'body.expiresAt: must be in the future');
  }
  const ban = await upsertBan(deps.pool, environmentId, channelId, userId, { reason: body?.reason ?? null, expiresAt }, audit);
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
  return ban;
}

/** Lifts a ban (idempotent). */
export async function removeBan(deps: ModerationDeps, environmentId: string, channelId: string, userId: string, audit?: Audit) {
  const wasBanned = await deleteBan(deps.pool, environmentId, channelId, userId, audit);
  await announceAccessChange(deps, environmentId);
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'ban.removed', {
    channelId: channelId === ENVIRONMENT_WIDE ? null : channelId,
    userId,
    wasBanned,
  });
  return wasBanned;
}
