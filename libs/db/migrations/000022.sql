-- Usage per environment (docs/stats.md): counted in memory by the process that sees each thing,
-- flushed in batches into `usage_minutes` (never a write per message), rolled up to hours, days
-- and months by the dispatcher's jobs, pruned by them (minutes after 48 h, hours after 90 days,
-- days and months after 2 years).
--
-- Within a minute every column is a sum of what the processes flushed (a flush adds). Across
-- minutes every column is a sum over the interval, except `connections_peak` and
-- `channels_active`, whose hour, day and month are the largest of their minutes: a minute's
-- `connections_peak` is the sum of each gateway's peak in that minute (each flushes the rise of
-- its peak since its last flush of the minute), and its `channels_active` the sum of each
-- channel-node's distinct channels that committed in it (each flushes the channels new since its
-- last flush of the minute; a channel's owner is one node at a time). `connection_seconds` is
-- socket time: the average of concurrent connections over an interval is it / the interval's
-- seconds.
create table usage_minutes (
  environment_id text not null,
  at timestamptz not null,
  messages_published_socket bigint not null default 0,
  messages_published_http bigint not null default 0,
  messages_published_batch bigint not null default 0,
  messages_delivered bigint not null default 0,
  bytes_delivered bigint not null default 0,
  connections_peak bigint not null default 0,
  connection_seconds bigint not null default 0,
  channels_active bigint not null default 0,
  presence_events bigint not null default 0,
  history_reads bigint not null default 0,
  api_requests_control bigint not null default 0,
  api_requests_realtime bigint not null default 0,
  webhook_events bigint not null default 0,
  webhook_deliveries bigint not null default 0,
  webhook_failed_attempts bigint not null default 0,
  webhook_dropped bigint not null default 0,
  notifications bigint not null default 0,
  primary key (environment_id, at)
);
create table usage_hours (like usage_minutes including all);
create table usage_days (like usage_minutes including all);
create table usage_months (like usage_minutes including all);

-- One row per flush a process committed (its random source id and the flush's number), written in
-- the flush's transaction: a flush repeated after an answer was lost (its outcome unknown) finds
-- its row and adds nothing, so nothing is counted twice. Pruned with the minutes.
create table usage_flushes (
  source text not null,
  flush bigint not null,
  created_at timestamptz not null default now(),
  primary key (source, flush)
);
create index usage_flushes_created_idx on usage_flushes (created_at);
