/**
 * The counters of `usage_minutes` (migration 000022), as libs/db lists them for the rollup: a
 * flush writes them in this order (by name, so any order the list keeps is the table's),
 * docs/stats.md says what each one counts.
 */
import { USAGE_COLUMNS, type UsageColumn } from '@rtm/db';

export { USAGE_COLUMNS, type UsageColumn };

/** The columns that are plain sums of what was counted (the other three the meter derives). */
export type UsageCounter = Exclude<UsageColumn, 'connections_peak' | 'connection_seconds' | 'channels_active'>;

/** A publish's route, as the command carries it to the channel-node that commits it. */
export type PublishRoute = 'socket' | 'http' | 'batch';

export const PUBLISHED_BY_ROUTE: Readonly<Record<PublishRoute, UsageCounter>> = {
  socket: 'messages_published_socket',
  http: 'messages_published_http',
  batch: 'messages_published_batch',
};

/** Each summed counter's index in USAGE_COLUMNS. */
export const SUMMED_INDEX: Readonly<Record<UsageCounter, number>> = Object.fromEntries(USAGE_COLUMNS.map((column, index) => [column, index])) as Record<
  UsageCounter,
  number
>;
