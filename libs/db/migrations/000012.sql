-- Webhook endpoints: an environment may have up to 50, each with its own URL, signing secret,
-- filters (event types, channel patterns), rate limit and enabled flag, beside the default
-- endpoint that the deployed configuration's `webhooks.url` still names (environments.webhook_url,
-- signed with webhook_secrets). A delivery belongs to one endpoint (endpoint_id; null: the default
-- one). Hot paths and the index that serves each:
--   publish fan-out   webhook_endpoints (environment_id) where not disabled
--   ledger by endpoint webhook_deliveries (endpoint_id, id desc)
create table webhook_endpoints (
  -- ep_…, time-ordered: `order by id` lists them in the order they were made
  id text primary key,
  environment_id text not null references environments on delete cascade,
  url text not null,
  description text not null default '',
  -- null: every event type; otherwise only these
  event_types text[],
  -- null: every channel; otherwise exact ids, `prefix*` or `*` (events without a channel pass)
  channels text[],
  disabled boolean not null default false,
  -- why it is disabled: 'manual' (PATCH or create) or 'failing' (WEBHOOK_DISABLE_AFTER)
  disabled_reason text check (disabled_reason in ('manual', 'failing')),
  disabled_at timestamptz,
  rate_limit_per_second integer check (rate_limit_per_second > 0),
  -- encrypted (secret-box.ts, bound to this table, row and column), as webhook_secrets
  secret text not null,
  previous_secret text,
  rotated_at timestamptz,
  key_id text,
  -- the first failed attempt since the last success; null while attempts succeed
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_environment_idx on webhook_endpoints (environment_id, id) where not disabled;
create index webhook_endpoints_all_idx on webhook_endpoints (environment_id, id);

alter table webhook_deliveries add column endpoint_id text references webhook_endpoints on delete cascade;
-- channel-less events (user.messages_erased, endpoint.disabled, webhook.test …)
alter table webhook_deliveries alter column channel_id drop not null;
alter table webhook_deliveries drop constraint webhook_deliveries_event_type_check;
alter table webhook_deliveries add constraint webhook_deliveries_event_type_check check (event_type in (
  'message.published', 'message.retracted',
  'member.added', 'member.removed', 'member.banned', 'member.unbanned',
  'channel.deleted', 'user.messages_erased', 'webhook.test',
  'endpoint.disabled', 'delivery.dropped'));
-- one delivery per event and endpoint (the default endpoint counts as '')
drop index webhook_deliveries_event_idx;
create unique index webhook_deliveries_event_idx on webhook_deliveries (environment_id, event_id, (coalesce(endpoint_id, '')));
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id desc) where endpoint_id is not null;

-- Recovery of an endpoint's dropped deliveries (POST /v1/webhook-endpoints/{id}/recover), run by a
-- dispatcher task; its progress is read at GET /v1/webhook-tasks/{id}.
create table webhook_tasks (
  -- wtk_…
  id text primary key,
  environment_id text not null references environments on delete cascade,
  endpoint_id text not null references webhook_endpoints on delete cascade,
  kind text not null check (kind in ('recover')),
  since timestamptz not null,
  until timestamptz not null,
  status text not null default 'running' check (status in ('running', 'completed', 'failed')),
  -- deliveries sent again so far, and the last one taken (the task resumes after it)
  recovered integer not null default 0,
  cursor text,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index webhook_tasks_environment_idx on webhook_tasks (environment_id, id desc);
