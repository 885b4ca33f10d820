-- Token lifecycle and erasure: revoked user tokens, tenant-registered token keys, signing-key
-- retirement with a grace period, and erasure jobs. Hot paths and the index that serves each:
--   token check (cached per environment)  revoked_tokens pk (environment_id, jti); user_token_cutoffs pk
--   sweep of expired revocations          revoked_tokens (expires_at); user_token_cutoffs (expires_at)
--   erasure runner claiming a job         erasure_jobs (locked_until) where status = 'running'

-- One revoked token, remembered until the token would have expired anyway.
create table revoked_tokens (
  environment_id text not null references environments on delete cascade,
  jti text not null,
  revoked_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (environment_id, jti)
);
create index revoked_tokens_expires_idx on revoked_tokens (expires_at);

-- Every token of a user issued before `valid_after` is refused; kept until no such token can
-- still be unexpired (valid_after + the longest token lifetime).
create table user_token_cutoffs (
  environment_id text not null references environments on delete cascade,
  user_id text not null,
  valid_after timestamptz not null,
  expires_at timestamptz not null,
  primary key (environment_id, user_id)
);
create index user_token_cutoffs_expires_idx on user_token_cutoffs (expires_at);

-- Signing keys: `retired_at` in the future is a key in its grace period (it verifies, it no
-- longer signs); in the past, a key whose tokens are refused.
create index signing_keys_retiring_idx on signing_keys (environment_id, retired_at) where retired_at is not null;

-- Public keys an environment's own backend signs user tokens with (RS256, ES256, EdDSA).
-- `kid` is unique across environments: the token's `kid` names its environment.
create table token_keys (
  kid text primary key,
  environment_id text not null references environments on delete cascade,
  alg text not null check (alg in ('RS256', 'ES256', 'EdDSA')),
  -- the public JWK as registered (never a private key)
  jwk jsonb not null,
  created_at timestamptz not null default now()
);
create index token_keys_environment_idx on token_keys (environment_id);

-- Or a JWKS URL the gateways fetch (with the webhook URL policy) and cache.
create table token_jwks (
  environment_id text primary key references environments on delete cascade,
  url text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Erasure jobs: advanced in batches by any gateway holding the lease; `cursor` is the last
-- message handled, so a job resumes where a crashed gateway left it.
create table erasure_jobs (
  id text primary key,
  environment_id text not null references environments on delete cascade,
  kind text not null check (kind in ('user_messages')),
  user_id text not null,
  status text not null default 'running' check (status in ('running', 'done', 'failed')),
  -- (channel_pk, seq) of the last message handled
  cursor_channel_pk bigint not null default 0,
  cursor_seq bigint not null default 0,
  retracted bigint not null default 0,
  last_error text,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index erasure_jobs_running_idx on erasure_jobs (locked_until) where status = 'running';
create index erasure_jobs_environment_idx on erasure_jobs (environment_id, id desc);
-- the erasure scan: one user's messages in channel and seq order
create index messages_sender_idx on messages (sender_id, channel_pk, seq);
