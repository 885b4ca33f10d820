-- Channel deletions become erasures (`kind = 'channel'`), run by a dispatcher task as a user's
-- erasure is, so a deletion survives the crash of the process running it and its progress is
-- readable at GET /v1/erasures/{id}. A channel deletion has no user; it names its channel and
-- keeps its counts on the row, so the answer survives a resumed run.
alter table erasure_jobs drop constraint erasure_jobs_kind_check;
alter table erasure_jobs add constraint erasure_jobs_kind_check check (kind in ('user_messages', 'channel'));
alter table erasure_jobs alter column user_id drop not null;
alter table erasure_jobs add column channel_id text;
alter table erasure_jobs add constraint erasure_jobs_target_check
  check ((kind = 'user_messages') = (user_id is not null) and (kind = 'channel') = (channel_id is not null));
-- counted in the transaction that deletes them, by the run holding the erasure's token
alter table erasure_jobs add column deleted_messages bigint not null default 0;
alter table erasure_jobs add column deleted_members bigint not null default 0;
alter table erasure_jobs add column deleted_bans bigint not null default 0;
-- null until the deletion looked at the channel; false: there was nothing to delete
alter table erasure_jobs add column channel_found boolean;
-- 'closing': the rows are gone (one transaction); the sockets are closed once more, then it is done
alter table erasure_jobs add column channel_step text check (channel_step in ('closing'));
