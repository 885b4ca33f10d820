/**
 * What one event weighs against a rate limit, in units of that limit (docs/limits.md, "Weighted
 * events"). Kept pure so the arithmetic is tested on its own; the gateway takes the units.
 */
import type { LimitName } from '@rtm/rules';

/** Messages of history that cost one unit of `userHistoryReadsPerSecond`. */
export const HISTORY_MESSAGES_PER_UNIT = 50;

/** Mentions that cost one unit of `userPublishesPerSecond` on top of the publish itself. */
export const MENTIONS_PER_UNIT = 10;

const wholeAtLeast = (n: number, least: number) => (Number.isFinite(n) ? Math.max(least, Math.floor(n)) : least);

/**
 * A history read that may return up to `messages` messages (the `limit` asked for, or what a
 * socket's `since` will replay): one unit per HISTORY_MESSAGES_PER_UNIT, at least one.
 * `limit=50` (the default page) is 1 unit, `limit=500` is 10.
 */
export function historyUnits(messages: number): number {
  return Math.max(1, Math.ceil(wholeAtLeast(messages, 0) / HISTORY_MESSAGES_PER_UNIT));
}

/**
 * A publish with `mentions` mentioned users: 1 for the message and one more per started
 * MENTIONS_PER_UNIT mentions. No mentions: 1; 1–10: 2; 100 (the most a message may carry): 11.
 */
export function publishUnits(mentions: number): number {
  return 1 + Math.ceil(wholeAtLeast(mentions, 0) / MENTIONS_PER_UNIT);
}

/**
 * The realtime edge's requests and frames counted per user, each by its own limit, and all of
 * them together (in units) by `environmentEdgeReadsPerSecond`. A new kind of edge read is one
 * more entry here and one more limit in DEFAULT_LIMITS.
 */
export const EDGE_LIMITS = Object.freeze({
  /** `GET /v1/channels/{id}/history`, and the replay of a socket's `since` (weighted by historyUnits). */
  history: 'userHistoryReadsPerSecond',
  /** `GET /v1/inbox`, and every page an inbox subscription replays (weighted by historyUnits of its notifications). */
  inbox: 'userInboxReadsPerSecond',
  /** `GET /v1/channels/{id}/members`. */
  roster: 'userRosterReadsPerSecond',
  /** `DELETE /v1/channels/{id}/messages/{messageId}` and `retract` frames. */
  retract: 'userRetractsPerSecond',
  /** Reactions added or removed: the realtime routes and the `react` / `unreact` frames. */
  react: 'userReactionsPerSecond',
  /** A moderator's removals, bans and unbans: the realtime routes and the `/v1/connect` frames. */
  moderation: 'userModerationsPerSecond',
} as const satisfies Record<string, LimitName>);

export type EdgeOperation = keyof typeof EDGE_LIMITS;

/** The per-environment total every edge operation also counts against. */
export const EDGE_TOTAL_LIMIT: LimitName = 'environmentEdgeReadsPerSecond';
