-- A reaction group reads what its users already have on the message (apps/channel-node
-- change-sql.ts REACTIONS_READ_SQL): one lookup per user by this index, so the read costs the
-- group's size, not the message's reactions. The primary key (channel_pk, seq, type, user_id)
-- cannot serve it (the type comes first), and scanning the message's rows for every user took
-- 100-300 ms per group once a message held 10,000 reactions (docs/benchmarks.md, "Reaction storms").
create index message_reactions_message_user_idx on message_reactions (channel_pk, seq, user_id, type);
