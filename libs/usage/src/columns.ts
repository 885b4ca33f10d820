/**
 * The counters of `usage_minutes` (migration 000022), in the table's column order: a flush writes
 * them in this order, docs/stats.md says what each one counts.
 */
export const USAGE_COLUMNS = [
  'messages_published_socket',
  'messages_published_http',
  'messages_published_batch',
  'messages_delivered',
  'bytes_delivered',
  'connections_peak',
  'connection_seconds',
  'channels_active',
  'presence_events',
  'history_reads',
  'api_requests_control',
  'api_requests_realtime',
  'webhook_events',
  'webhook_deliveries',
  'webhook_failed_attempts',
  'webhook_dropped',
  'notifications',
] as const;

export type UsageColumn = (typeof USAGE_COLUMNS)[number];

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
