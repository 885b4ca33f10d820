import type { QuotaName } from './quota-table.ts';

/**
 * Every rate limit and quota of an environment, with its default. An environment's deployed
 * configuration may override any of them (`limits` in `PUT /v1/config`, or the admin CLI's
 * `set-limits`); whatever it leaves out takes the default below.
 *
 * Rates count admissions per fixed one-second window, across the whole cluster. Quotas count
 * open sockets at a time, across the whole cluster.
 */
export const DEFAULT_LIMITS = Object.freeze({
  /** Publishes by one user (HTTP and socket together), per second; a publish with mentions weighs more (weights.ts). */
  userPublishesPerSecond: 50,
  /** Requests made with one secret key (the tenant's backend), per second. */
  secretKeyRequestsPerSecond: 10_000,
  /** Anonymous tokens minted with one publishable key, per second. */
  anonymousMintsPerKeyPerSecond: 100,
  /** Anonymous tokens minted with publishable keys from one client IP, per second. */
  anonymousMintsPerIpPerSecond: 10,
  /** Messages published in the environment (every source), per second. */
  environmentMessagesPerSecond: 20_000,
  /** Sockets one user holds open at a time (channel and inbox sockets). */
  socketsPerUser: 100,
  /** Sockets the environment holds open at a time. */
  socketsPerEnvironment: 50_000,
  /** Notifications stored for one user (mentions and POST /v1/notifications), per fixed minute; counted in Postgres. */
  notificationsPerUserPerMinute: 120,
  /** Units of history one user reads on the realtime edge per second (one unit per 50 messages of a page or replay). */
  userHistoryReadsPerSecond: 100,
  /** Roster reads by one user on the realtime edge, per second. */
  userRosterReadsPerSecond: 20,
  /** Retractions by one user on the realtime edge (HTTP and socket frames together), per second. */
  userRetractsPerSecond: 50,
  /** Reactions added or removed by one user on the realtime edge (HTTP and socket frames together), per second. */
  userReactionsPerSecond: 20,
  /** Removals, bans and unbans by one moderator on the realtime edge (HTTP and socket frames together), per second. */
  userModerationsPerSecond: 20,
  /** Units of inbox one user reads on the realtime edge per second (one unit per 50 notifications of a page or replay). */
  userInboxReadsPerSecond: 20,
  /** Units of the six limits above taken by every user of the environment together, per second. */
  environmentEdgeReadsPerSecond: 20_000,
  /** Sockets one user opens (channel, inbox and /v1/connect sockets), per second. */
  userSocketOpensPerSecond: 30,
});

export type Limits = { readonly [K in keyof typeof DEFAULT_LIMITS]: number };
export type LimitName = keyof Limits;
/** What a deployment stores under `limits`: the rate-limit overrides and the monthly quotas set (quota-table.ts). */
export type LimitOverrides = Partial<Record<LimitName, number>> & Partial<Record<QuotaName, number>>;

export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as LimitName[];

/** The limits in force for an environment: its overrides over the defaults. */
export function effectiveLimits(overrides: LimitOverrides | null | undefined): Limits {
  const limits: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const name of LIMIT_NAMES) {
    const value = overrides?.[name];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1) limits[name] = value;
  }
  return Object.freeze(limits) as Limits;
}
