/**
 * The statements of messages that change (change-writer.ts runs them, inside the batch's
 * transaction): the message read and locked, an edit, a retraction, reactions and their summary,
 * the change's place in the channel's sequence (`message_events`) and the channel's fence.
 */
import { REACTION_USERS_SHOWN } from '@rtm/schemas';

/**
 * A message to change ($1 channel pk, $2 id), locked until commit, with its state now; a retracted
 * one with its retraction's seq (the last change of a message is its retraction), so a second
 * retraction answers as the first did.
 */
export const CHANGE_READ_SQL = `select seq, id, type, kind, sender_id, sender_anon, "to", mentions, ts, retracted_at is not null as retracted,
         content::text as content, version, updated_at, updated_by, reactions::text as reactions,
         case when retracted_at is not null
           then (select max(e.event_seq) from message_events e where e.channel_pk = m.channel_pk and e.seq = m.seq) end as retracted_at_seq
       from messages m where channel_pk = $1 and id = $2 for update`;

/**
 * An edit ($1 channel pk, $2 seq, $3 content text, $4 time, $5 editor): the version it replaces is
 * kept in `message_versions` (read from the row before the update: one snapshot for the statement).
 */
export const EDIT_SQL = `with kept as (
         insert into message_versions (channel_pk, seq, version, content, updated_at, updated_by)
         select channel_pk, seq, version, content, updated_at, updated_by from messages where channel_pk = $1 and seq = $2)
       update messages set content = $3::json, version = version + 1, updated_at = $4, updated_by = $5
       where channel_pk = $1 and seq = $2
       returning version`;

/**
 * A retraction ($1 channel pk, $2 seq): the content goes, with every earlier version and every
 * reaction; the row stays as a tombstone.
 */
export const RETRACT_CHANGE_SQL = `with versions as (delete from message_versions where channel_pk = $1 and seq = $2),
         reactions as (delete from message_reactions where channel_pk = $1 and seq = $2)
       update messages set content = null, reactions = null, retracted_at = now() where channel_pk = $1 and seq = $2`;

/** A change's place in the channel's sequence ($1 channel pk, $2 its seq, $3 the message's seq). */
export const EVENT_SQL = 'insert into message_events (channel_pk, event_seq, seq) values ($1, $2, $3)';

/**
 * The channel's last seq moved past the changes of the batch ($1 pk, $2 expected, $3 new): none
 * when another writer moved it, or a deletion started (the batch rolls back: FenceError).
 */
export const CHANGE_FENCE_SQL = `update channels set last_seq = $3
       where pk = $1 and last_seq = $2 and (deleting_until is null or deleting_until <= now())`;

/**
 * What the users of a reaction group already have on the message ($1 channel pk, $2 seq, $3 user
 * ids): one lookup per user in message_reactions_message_user_idx, so the read costs the group's
 * size whatever the message holds. `offset 0` keeps the lookup a subquery run per user: flattened
 * into a join, a generic plan over a table without statistics (a new deployment, a storm before
 * autovacuum's analyze) scanned every reaction of the message once per user.
 */
export const REACTIONS_READ_SQL = `select r.type, u.user_id
       from unnest($3::text[]) as u(user_id)
       cross join lateral (select type from message_reactions m
                           where m.channel_pk = $1 and m.seq = $2 and m.user_id = u.user_id offset 0) r`;

/** Adds ($3 types, $4 users) and removes ($5 types, $6 users) reactions of one message ($1, $2) at $7. */
export const REACTIONS_WRITE_SQL = `with added as (
         insert into message_reactions (channel_pk, seq, type, user_id, created_at)
         select $1, $2, v.type, v.user_id, $7 from unnest($3::text[], $4::text[]) as v(type, user_id)
         on conflict do nothing returning 1),
       removed as (
         delete from message_reactions r using unnest($5::text[], $6::text[]) as v(type, user_id)
         where r.channel_pk = $1 and r.seq = $2 and r.type = v.type and r.user_id = v.user_id returning 1)
       select (select count(*) from added)::int as added, (select count(*) from removed)::int as removed`;

/**
 * The message's summary made again from its reactions and stored ($1 channel pk, $2 seq): each
 * type's count and its first users (by time, then id), null when none is left.
 */
export const SUMMARY_SQL = `update messages set reactions = (
         select jsonb_object_agg(s.type, jsonb_build_object('count', s.n, 'users', to_jsonb(s.users), 'clipped', s.n > ${REACTION_USERS_SHOWN}))
         from (select type, count(*)::int as n, (array_agg(user_id order by created_at, user_id))[1:${REACTION_USERS_SHOWN}] as users
               from message_reactions where channel_pk = $1 and seq = $2 group by type) s)
       where channel_pk = $1 and seq = $2
       returning reactions::text as reactions`;
