-- The per-recipient cap on stored notifications (the limit notificationsPerUserPerMinute): one
-- row per (environment, user) that was sent a notification recently, counting what was stored
-- for the user in the current one-minute window of the database's clock. Every writer of
-- notifications (the channel-node's mentions, POST /v1/notifications) upserts it in the same
-- statement that inserts the notifications, so concurrent writers queue on the row and the cap is
-- never overshot. Rows of past windows are deleted by the gateways' notification sweep.
create table notification_windows (
  environment_id text not null references environments on delete cascade,
  user_id text not null,
  -- floor(epoch seconds / 60) of the window counted in `stored`
  minute bigint not null,
  -- notifications stored for the user in that window (never above the cap in force)
  stored integer not null,
  -- how many the latest upsert admitted: RETURNING shows only the new row, so the writer reads
  -- its share here
  admitted integer not null,
  primary key (environment_id, user_id)
);
create index notification_windows_minute_idx on notification_windows (minute);
