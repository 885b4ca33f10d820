-- A secret key is an actor too: revealing or rotating a webhook signing secret with it writes an
-- audit entry (actor_id: the key's `key_…` id), as the dashboard's reveal and rotation do.
alter table audit_log drop constraint audit_log_actor_kind_check;
alter table audit_log add constraint audit_log_actor_kind_check check (actor_kind in ('user', 'cli', 'system', 'key')) not valid;
alter table audit_log validate constraint audit_log_actor_kind_check;
