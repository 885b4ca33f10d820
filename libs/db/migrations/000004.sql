-- Channel roles gain `readonly` (subscribes and reads history, never publishes).
alter table memberships drop constraint memberships_role_check;
alter table memberships add constraint memberships_role_check check (role in ('member', 'moderator', 'readonly'));

-- Retention by namespace deletes a channel's old messages by primary key range; this index
-- lets it find the boundary seq (the last message older than the cutoff) without a scan.
create index messages_channel_ts_idx on messages (channel_pk, ts);
