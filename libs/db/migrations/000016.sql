-- Logs tokens minted with a dashboard session live no longer than that session: each is recorded
-- with the session's token hash, and when the session ends (sign-out, expiry, replaced by a new
-- sign-in, every session of a user ended) the tokens still recorded for it are revoked by jti and
-- their logs sockets close on every gateway.
-- Reads:
--   sweep of ended sessions   logs_token_sessions (session_hash) joined to dashboard_sessions pk
--   logs socket opening       logs_token_sessions pk (jti)
-- No foreign key to dashboard_sessions: the row must outlive its session until its token is revoked.
create table logs_token_sessions (
  jti text primary key,
  environment_id text not null references environments on delete cascade,
  session_hash bytea not null,
  -- the token's own expiry: past it there is nothing left to revoke
  expires_at timestamptz not null
);
create index logs_token_sessions_session_idx on logs_token_sessions (session_hash);
