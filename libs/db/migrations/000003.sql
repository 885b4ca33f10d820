-- Dashboard accounts: users and their organization roles, sign-in sessions, login throttling,
-- invitations, the audit log, and when each API key was last used. Hot paths and their indexes:
--   every dashboard request   dashboard_sessions pk (token_hash); organization_members pk
--   sign-in                   users (email); login_failures (key, at desc)
--   audit page                audit_log (organization_id, id desc)

create table users (
  id text primary key,
  -- stored lowercase and trimmed; compared as stored
  email text not null unique,
  -- PHC-style string naming its algorithm and parameters: $scrypt$ln=17,r=8,p=1$<salt>$<hash>
  password_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table organization_members (
  organization_id text not null references organizations on delete cascade,
  user_id text not null references users on delete cascade,
  role text not null check (role in ('owner', 'admin', 'viewer')),
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
create index organization_members_user_idx on organization_members (user_id);

-- the cookie carries 32 random bytes; only their sha256 is stored
create table dashboard_sessions (
  token_hash bytea primary key,
  user_id text not null references users on delete cascade,
  created_at timestamptz not null default now(),
  -- idle expiry counts from here; refreshed at most every minute (more often for short idle times)
  last_seen_at timestamptz not null default now(),
  -- absolute expiry, fixed when the session is made
  expires_at timestamptz not null
);
create index dashboard_sessions_user_idx on dashboard_sessions (user_id);
create index dashboard_sessions_expires_idx on dashboard_sessions (expires_at);

-- One row per sign-in attempt per key ('account:<email>' and 'ip:<address>'), written before the
-- password is checked and deleted when it was right: the rows within the window are the failures.
create table login_failures (
  key text not null,
  attempt_id text not null,
  at timestamptz not null default now()
);
create index login_failures_key_idx on login_failures (key, at desc);
create index login_failures_attempt_idx on login_failures (attempt_id);
create index login_failures_at_idx on login_failures (at);

create table invitations (
  id text primary key,
  organization_id text not null references organizations on delete cascade,
  -- sha256 of the single-use token in the link
  token_hash bytea not null unique,
  role text not null check (role in ('owner', 'admin', 'viewer')),
  -- when set, only this address may accept
  email text,
  created_by text references users on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by text references users on delete set null,
  revoked_at timestamptz
);
create index invitations_organization_idx on invitations (organization_id, created_at desc);

-- Who changed what, when, in which organization. The actor and target are copied in (no foreign
-- keys), so an entry outlives the user, project or key it names.
create table audit_log (
  -- time-ordered (aud_…): `order by id desc` is newest first
  id text primary key,
  organization_id text not null references organizations on delete cascade,
  actor_kind text not null check (actor_kind in ('user', 'cli', 'system')),
  actor_id text,
  actor_email text,
  action text not null,
  target_type text not null,
  target_id text,
  details jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index audit_log_organization_idx on audit_log (organization_id, id desc);

-- written by the gateways' credential caches at most once a minute per key and gateway
alter table api_keys add column last_used_at timestamptz;
