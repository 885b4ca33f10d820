-- Monthly quotas per environment (docs/quotas.md): what the environment used in each calendar
-- month (UTC), counted where it happens: messages by the channel-node in the commit that stores
-- them (the row is updated in the same statement, so a publish past the limit never commits),
-- connection seconds by each gateway's periodic flush. The limits themselves are in the
-- configuration (`limits.monthlyMessages`, `limits.monthlyConnectionMinutes`).
create table quota_usage (
  environment_id text not null,
  period_start date not null,
  messages bigint not null default 0,
  connection_seconds bigint not null default 0,
  primary key (environment_id, period_start)
);

-- One row per `usage.threshold` event sent: its key makes the event once per environment,
-- quota, threshold and month, since the row and the event's deliveries commit together.
create table quota_thresholds (
  environment_id text not null,
  period_start date not null,
  quota text not null check (quota in ('monthlyMessages', 'monthlyConnectionMinutes')),
  threshold int not null check (threshold in (80, 100)),
  created_at timestamptz not null default now(),
  primary key (environment_id, period_start, quota, threshold)
);

alter table webhook_deliveries drop constraint webhook_deliveries_event_type_check;
alter table webhook_deliveries add constraint webhook_deliveries_event_type_check check (event_type in (
  'message.published', 'message.retracted', 'message.updated', 'message.reactions',
  'member.added', 'member.removed', 'member.banned', 'member.unbanned',
  'channel.deleted', 'user.messages_erased', 'webhook.test',
  'endpoint.disabled', 'delivery.dropped',
  'channel.occupied', 'channel.vacated', 'channel.occupancy', 'presence.entered', 'presence.left',
  'usage.threshold')) not valid;
alter table webhook_deliveries validate constraint webhook_deliveries_event_type_check;
