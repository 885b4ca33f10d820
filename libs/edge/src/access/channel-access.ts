import { ServiceError } from '@rtm/errors';
import { readActiveNamespaces, type Pool, type Queryable } from '@rtm/db';
import { standingRowOf, standingsOf, type StandingRow } from '@rtm/channels';
import {
  decide,
  effectiveAccess,
  resolveNamespace,
  type ChannelAccessMode,
  type ChannelFacts,
  type ChannelOp,
  type ChannelRole,
  type Namespace,
  type PresenceDefaults,
  type ResolvedNamespace,
} from '@rtm/rules';
import type { EdgeDeps } from '../edge-deps.ts';

/** What an access decision reads: the per-gateway cache, the standing loader, Postgres for a target's role. */
export type AccessDeps = Pick<EdgeDeps, 'accessCache' | 'pool' | 'standings'>;
import type { UserAuth } from '../auth/authenticate.ts';
import type { StandingLoader } from './standing-loader.ts';

export type Access = ChannelAccessMode;

/** What Postgres knows about a user on a channel; the token's part comes from the claims. */
export interface Standing {
  access: Access;
  namespace: ResolvedNamespace;
  role: ChannelRole | null;
  ban: { reason: string | null } | null;
}

export function standingOf(row: StandingRow): Standing {
  const namespace = resolveNamespace(Array.isArray(row.namespaces) ? row.namespaces : undefined, row.channel_id, row.channel_defaults);
  return {
    access: effectiveAccess(row.own_access, namespace, row.default_access ?? 'open'),
    namespace,
    role: row.role,
    ban: row.banned ? { reason: row.ban_reason } : null,
  };
}

/** A user's standing on a channel, read from Postgres (uncached). */
export async function standingOfUser(pool: Queryable, environmentId: string, userId: string, channelId: string): Promise<Standing> {
  return standingOf(await standingRowOf(pool, environmentId, userId, channelId));
}

/** The facts `decide` takes: the standing plus the token's part. */
export function factsOf(standing: Standing, channelId: string, token: { anon: boolean; capabilities?: ChannelFacts['capabilities'] }): ChannelFacts {
  return { channelId, anonymous: token.anon, capabilities: token.capabilities, ...standing };
}

function enforce(facts: ChannelFacts, op: ChannelOp): void {
  const decision = decide(facts, op);
  if (!decision.ok) throw new ServiceError(decision.code, decision.reason);
}

/**
 * Whether a user token may do `op` on a channel (the rule is `decide` in @rtm/auth, documented in
 * docs/permissions.md): bans, the token's capabilities, access (the channel's own, else its
 * namespace's, else the environment's default), the namespace's rules, the role. Throws `banned`
 * or `forbidden`; answers the standing (namespace, role) for callers that need more. The standing
 * is cached per gateway (see AccessCache); every API change to membership, bans, access or the
 * configuration invalidates it.
 */
export async function authorize(deps: AccessDeps, auth: UserAuth, channelId: string, op: ChannelOp): Promise<Standing> {
  // misses of one moment (a wave of subscribes, a batch publish) are read together (standing-loader.ts)
  const standing = await deps.accessCache.lookup(auth.environmentId, channelId, auth.userId, () =>
    deps.standings.load(auth.environmentId, channelId, auth.userId),
  );
  enforce(factsOf(standing, channelId, { anon: auth.anon, capabilities: auth.claims.capabilities }), op);
  return standing;
}

/**
 * The same rule by ids, bypassing the cache, for re-checking a live subscription (tokens'
 * capabilities do not change under it): read at or after this call, batched with the other
 * lookups of the moment (a wave of subscribes re-checks with one query, not one each).
 */
export async function checkUserChannelAccess(standings: StandingLoader, environmentId: string, userId: string, channelId: string, anon = false): Promise<void> {
  enforce(factsOf(await standings.load(environmentId, channelId, userId), channelId, { anon }), 'subscribe');
}

/**
 * The same rule for many (channel, user) pairs of one environment in one query per 1000: the
 * refusal of each pair that may no longer subscribe, keyed `channelId \u0000 userId \u0000 anon`.
 * For re-checking the open sockets of an environment when its access changes (a config deploy,
 * a channel's access).
 */
export async function refusalsOf(
  pool: Pool,
  environmentId: string,
  pairs: readonly { channelId: string; userId: string; anon: boolean }[],
): Promise<Map<string, ServiceError>> {
  const refusals = new Map<string, ServiceError>();
  for (let start = 0; start < pairs.length; start += 1000) {
    const chunk = pairs.slice(start, start + 1000);
    const rows = new Map((await standingsOf(pool, environmentId, chunk)).map((row) => [`${row.channel_id}\u0000${row.user_id}`, row]));
    for (const { channelId, userId, anon } of chunk) {
      const row = rows.get(`${channelId}\u0000${userId}`);
      if (!row) continue;
      const decision = decide(factsOf(standingOf(row), channelId, { anon }), 'subscribe');
      if (!decision.ok) refusals.set(`${channelId}\u0000${userId}\u0000${anon}`, new ServiceError(decision.code, decision.reason));
    }
  }
  return refusals;
}

/** The channel's effective access: its own setting, else its namespace's, else the environment's deployed default. */
export async function channelAccessOf(pool: Queryable, environmentId: string, channelId: string): Promise<Access> {
  return (await standingOfUser(pool, environmentId, '', channelId)).access;
}

/**
 * The namespace of a channel, for the publish path (persist, maxContentBytes): the environment's
 * namespaces are read once per ACCESS_CACHE_MS (and again after a deploy) and resolved here, so a
 * publish to a new channel costs no query. Channel ids are never empty: the key cannot collide.
 */
export async function namespaceOf(deps: Pick<EdgeDeps, 'accessCache' | 'pool'>, environmentId: string, channelId: string): Promise<ResolvedNamespace> {
  const { namespaces, defaults } = await namespacesOf(deps, environmentId);
  return resolveNamespace(namespaces, channelId, defaults);
}

/** The environment's namespaces and presence defaults, as namespaceOf reads them (cached the same way). */
export function namespacesOf(
  deps: Pick<EdgeDeps, 'accessCache' | 'pool'>,
  environmentId: string,
): Promise<{ namespaces: Namespace[]; defaults: PresenceDefaults | null }> {
  return deps.accessCache.lookup(environmentId, '', 'namespaces', async () => {
    const row = await readActiveNamespaces<Namespace, PresenceDefaults>(deps.pool, environmentId);
    const namespaces = row?.namespaces;
    return { namespaces: Array.isArray(namespaces) ? namespaces : [], defaults: row?.defaults ?? null };
  });
}

/**
 * Removing or banning `targetId` from the realtime edge: the caller moderates the channel and the
 * target is not a moderator (read uncached, as a change follows).
 */
export async function authorizeModeration(deps: AccessDeps, auth: UserAuth, channelId: string, targetId: string): Promise<void> {
  await authorize(deps, auth, channelId, 'moderate');
  const target = await standingOfUser(deps.pool, auth.environmentId, targetId, channelId);
  if (target.role === 'moderator') throw new ServiceError('forbidden', 'a moderator cannot be removed or banned by another moderator');
}

/**
 * A retraction on the realtime edge needs publish; a moderator of the channel may retract any
 * message, anyone else only their own. Answers the sender the owner must check (undefined: any).
 */
export async function authorizeRetract(deps: AccessDeps, auth: UserAuth, channelId: string): Promise<string | undefined> {
  const standing = await authorize(deps, auth, channelId, 'publish');
  const moderates = decide(factsOf(standing, channelId, { anon: auth.anon, capabilities: auth.claims.capabilities }), 'moderate').ok;
  return moderates ? undefined : auth.userId;
}
