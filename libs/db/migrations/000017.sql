-- One-time codes mailed to an e-mail address: proof that whoever types the code reads that
-- mailbox. `verify` codes let a new dashboard account be made for the address (accepting an
-- invitation); `reset` codes set a new password. Only a sha256 of the code is stored; a code is
-- used once (`used_at`), dies at `expires_at` or after too many wrong guesses. The rows within the
-- request window are also the per-address and per-requester counts of the request limits.
create table email_codes (
  id text primary key,
  email text not null,
  purpose text not null check (purpose in ('verify', 'reset')),
  code_hash bytea not null,
  requested_by text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  failed_attempts integer not null default 0
);
create index email_codes_email_idx on email_codes (email, purpose, created_at desc);
create index email_codes_requester_idx on email_codes (requested_by, created_at desc);
create index email_codes_created_idx on email_codes (created_at);
