-- Tenancy, credentials, channels, messages, membership, notifications, configuration and the
-- webhook ledger. Hot paths and the index that serves each:
--   publish          channels (environment_id, id) → pk; messages pk (channel_pk, seq)
--   history page     messages pk (channel_pk, seq) scanned backwards or forwards
--   deliveries list  webhook_deliveries (environment_id, id desc) and (environment_id, status, id desc)

create table organizations (
  id text primary key,
  name text not null,
  created_at timestamptz not null default now()
);

create table projects (
  id text primary key,
  organization_id text not null references organizations on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  unique (organization_id, name)
);

create table environments (
  id text primary key,
  project_id text not null references projects on delete cascade,
  name text not null,
  -- the active configuration, denormalised from config_deployments for the publish path
  active_deployment_id text,
  webhook_url text,
  default_access text not null default 'open' check (default_access in ('open', 'members')),
  created_at timestamptz not null default now(),
  unique (project_id, name)
);

create table api_keys (
  id text primary key,
  environment_id text not null references environments on delete cascade,
  kind text not null check (kind in ('secret', 'publishable')),
  -- sha256 of the whole key; the key itself is shown once and never stored
  key_hash bytea not null unique,
  -- the first characters, so a key can be recognised in listings
  hint text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index api_keys_environment_idx on api_keys (environment_id);

create table allowed_origins (
  environment_id text not null references environments on delete cascade,
  origin text not null,
  created_at timestamptz not null default now(),
  primary key (environment_id, origin)
);

-- HMAC keys that sign the environment's user tokens; `id` is the JWT `kid`.
create table signing_keys (
  id text primary key,
  environment_id text not null references environments on delete cascade,
  secret bytea not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);
create index signing_keys_environment_idx on signing_keys (environment_id) where retired_at is null;

create table channels (
  environment_id text not null references environments on delete cascade,
  id text not null,
  pk bigint generated always as identity unique,
  -- the fence: a writer advances it only from the value it read (update … where last_seq = $expected)
  last_seq bigint not null default 0,
  -- null: the environment's default_access
  access text check (access in ('open', 'members')),
  created_at timestamptz not null default now(),
  primary key (environment_id, id)
);

create table messages (
  channel_pk bigint not null references channels (pk) on delete cascade,
  seq bigint not null,
  id text not null,
  type text not null,
  kind text not null check (kind in ('user', 'server', 'system')),
  -- null once retracted; json (not jsonb) keeps the published text as it was
  content json,
  sender_id text not null,
  sender_anon boolean not null,
  "to" text[],
  mentions text[],
  ts bigint not null,
  retracted_at timestamptz,
  primary key (channel_pk, seq)
);
create unique index messages_id_idx on messages (id);

create table idempotency_keys (
  channel_pk bigint not null references channels (pk) on delete cascade,
  key text not null,
  message_id text not null,
  seq bigint not null,
  ts bigint not null,
  created_at timestamptz not null default now(),
  primary key (channel_pk, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);

create table memberships (
  environment_id text not null references environments on delete cascade,
  channel_id text not null,
  user_id text not null,
  role text not null default 'member' check (role in ('member', 'moderator')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (environment_id, channel_id, user_id)
);

-- channel_id '' is an environment-wide ban (channel ids are never empty)
create table bans (
  environment_id text not null references environments on delete cascade,
  channel_id text not null,
  user_id text not null,
  reason text,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (environment_id, channel_id, user_id)
);
create index bans_user_idx on bans (environment_id, user_id);

create table notifications (
  id text primary key,
  environment_id text not null references environments on delete cascade,
  user_id text not null,
  type text not null,
  payload json not null,
  ts bigint not null,
  created_at timestamptz not null default now()
);
create index notifications_user_idx on notifications (environment_id, user_id, id);
create index notifications_created_idx on notifications (created_at);

create table config_deployments (
  id text primary key,
  environment_id text not null references environments on delete cascade,
  config jsonb not null,
  created_at timestamptz not null default now(),
  activated_at timestamptz
);
create index config_deployments_environment_idx on config_deployments (environment_id, created_at desc);

create table webhook_secrets (
  environment_id text primary key references environments on delete cascade,
  secret text not null,
  -- still signed with for 24 h after a rotation
  previous_secret text,
  rotated_at timestamptz,
  created_at timestamptz not null default now()
);

create table webhook_deliveries (
  -- time-ordered, so `order by id desc` is newest first
  id text primary key,
  environment_id text not null references environments on delete cascade,
  event_id text not null,
  event_type text not null check (event_type in ('message.published', 'message.retracted')),
  channel_id text not null,
  url text not null,
  -- the exact bytes every attempt sends
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'dropped')),
  attempts integer not null default 0,
  last_error text,
  last_status_code integer,
  next_attempt_at timestamptz,
  -- a dispatcher holds a delivery while it sends it; never two sends at once
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  delivered_at timestamptz
);
create unique index webhook_deliveries_event_idx on webhook_deliveries (environment_id, event_id);
create index webhook_deliveries_list_idx on webhook_deliveries (environment_id, id desc);
create index webhook_deliveries_status_idx on webhook_deliveries (environment_id, status, id desc);
create index webhook_deliveries_finished_idx on webhook_deliveries (updated_at) where status <> 'pending';
create index webhook_deliveries_pending_idx on webhook_deliveries (next_attempt_at) where status = 'pending';

create table webhook_attempts (
  delivery_id text not null references webhook_deliveries on delete cascade,
  n integer not null,
  at timestamptz not null,
  status_code integer,
  error text,
  duration_ms integer not null,
  primary key (delivery_id, n)
);
