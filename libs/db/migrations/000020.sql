-- Messages that change (docs/channels.md, "Messages that change"): an edit replaces a message's
-- content with a new version, a reaction summary updates its `reactions`, a retraction tombstones
-- it. Each such change takes the next seq of the channel's sequence, as a message does
-- (`channels.last_seq` counts both), so a subscriber that resumes from the last seq it saw gets
-- every change it missed: `message_events` maps each change's seq (`event_seq`) to its message, and
-- a replay or a gap repair sends the message's state as it is now at that position.
alter table messages
  add column version int not null default 1,
  add column updated_at bigint,
  add column updated_by text,
  add column reactions jsonb;

create table message_events (
  channel_pk bigint not null,
  event_seq bigint not null,
  seq bigint not null,
  primary key (channel_pk, event_seq),
  foreign key (channel_pk, seq) references messages (channel_pk, seq) on delete cascade
);
-- the cascade of a message's deletion
create index message_events_message_idx on message_events (channel_pk, seq);

-- Earlier versions of an edited message (the current one is the message's row). A retraction or an
-- erasure deletes them with the content: nothing edited away comes back.
create table message_versions (
  channel_pk bigint not null,
  seq bigint not null,
  version int not null,
  content json not null,
  updated_at bigint,
  updated_by text,
  primary key (channel_pk, seq, version),
  foreign key (channel_pk, seq) references messages (channel_pk, seq) on delete cascade
);

-- One row per (message, reaction type, user): a user reacts with a type at most once (`distinct`).
create table message_reactions (
  channel_pk bigint not null,
  seq bigint not null,
  type text not null,
  user_id text not null,
  created_at bigint not null,
  primary key (channel_pk, seq, type, user_id),
  foreign key (channel_pk, seq) references messages (channel_pk, seq) on delete cascade
);
-- a user's reactions (erasure)
create index message_reactions_user_idx on message_reactions (user_id);

alter table webhook_deliveries drop constraint webhook_deliveries_event_type_check;
alter table webhook_deliveries add constraint webhook_deliveries_event_type_check check (event_type in (
  'message.published', 'message.retracted', 'message.updated', 'message.reactions',
  'member.added', 'member.removed', 'member.banned', 'member.unbanned',
  'channel.deleted', 'user.messages_erased', 'webhook.test',
  'endpoint.disabled', 'delivery.dropped'));
