import { ROSTER_PAGE_MAX, UserId, controlRosterOperations, realtimeRosterOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { authorize, channelAccessOf, keyAuth, namespaceOf, requireSecretKey, requireUser, userAuth } from '@rtm/edge';
import type { ChannelRole } from '@rtm/rules';
import { bannedAmong, memberPage } from '@rtm/channels';
import { decodeCursor, encodeCursor } from '../http/list-cursor.ts';

// the cursor is the last entry's userId (list-cursor.ts)
const isUserId = (userId: string) => UserId.safeParse(userId).success;

/**
 * One page of a channel's roster: members (with role) and live presence (with the presence data
 * of those who entered), sorted by userId, the entries after `query.cursor`. Members come from Postgres a page at a time (plus one, to know
 * whether more follow); on an open channel the online users who are not members are merged in.
 * The order is byte order (collate "C"), the same as JavaScript's for user ids, which are ASCII.
 * The Postgres part (access, members, bans) is one read of the read pool once it has every change
 * committed before the request (docs/read-replicas.md); presence is NATS's, read meanwhile.
 */
async function rosterOf(deps: GatewayDeps, environmentId: string, channelId: string, query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? ROSTER_PAGE_MAX;
  const after = query.cursor === undefined ? '' : decodeCursor(query.cursor, isUserId);
  const presence = presentIn(deps, environmentId, channelId);
  // a rejection is the roster's, once awaited below
  presence.catch(() => {});
  const roles = await deps.reads.current('roster', async (db) => {
    const [access, { members: stored }] = await Promise.all([
      channelAccessOf(db, environmentId, channelId),
      // one more than the page, so that a guest after the last member shows whether more follow
      memberPage(db, environmentId, channelId, { after, limit: limit + 1 }),
    ]);
    const roles = new Map<string, ChannelRole>(stored.map((member) => [member.userId, member.role]));
    if (access !== 'open') return roles;
    // a banned user is left out even while presence still holds them (their sockets close on the
    // ban): the page's first guests are checked, more as far as bans took some out
    const guests = [...(await presence).online].filter((userId) => userId > after && !roles.has(userId)).sort(byteOrder);
    let wanted = limit + 1;
    for (let at = 0; at < guests.length && wanted > 0; ) {
      const chunk = guests.slice(at, at + wanted);
      at += chunk.length;
      const banned = await bannedAmong(db, environmentId, channelId, chunk);
      for (const userId of chunk) if (!banned.has(userId)) roles.set(userId, 'member');
      wanted = banned.size;
    }
    return roles;
  });
  const { online, entries } = await presence;
  const sorted = [...roles].sort(([a], [b]) => byteOrder(a, b));
  const page = sorted.slice(0, limit);
  const members = page.map(([userId, role]) => {
    const data = entries.get(userId);
    // serialized by the gateway that wrote it (at most 1 KiB): parsed only for the page's entries
    return data === undefined ? { userId, role, online: online.has(userId) } : { userId, role, online: online.has(userId), data: JSON.parse(data) as unknown };
  });
  return { members, nextCursor: sorted.length > limit ? encodeCursor(page[page.length - 1]![0]) : null };
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Who is online in the channel, with the entries of those who entered; nobody where its namespace does not track presence. */
async function presentIn(deps: GatewayDeps, environmentId: string, channelId: string): Promise<{ online: Set<string>; entries: Map<string, string> }> {
  if (!(await namespaceOf(deps, environmentId, channelId)).presence) return { online: new Set(), entries: new Map() };
  return deps.sessions.presence.present(environmentId, channelId);
}

/** Realtime edge: `GET /v1/channels/{channelId}/members` for a user allowed to read the channel. */
export async function rosterRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...realtimeRosterOperations.getRoster,
    onRequest: requireUser(deps),
    handler: async (request) => {
      const auth = userAuth(request);
      await authorize(deps, auth, request.params.channelId, 'presence');
      return rosterOf(deps, auth.environmentId, request.params.channelId, request.query);
    },
  });
}

/** Control plane: the same roster for the tenant's backend. */
export async function controlRosterRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...controlRosterOperations.getRoster,
    onRequest: requireSecretKey(deps),
    handler: async (request) => rosterOf(deps, keyAuth(request).environmentId, request.params.channelId, request.query),
  });
}
