/**
 * The statements of a group commit (commit-batch.ts runs them): the load of the channel rows, the
 * read of the idempotency keys already used, the write of a whole batch in one statement with the
 * parameters it takes, and a retraction's reads and writes.
 */
import { admitNotificationsSql, ARRAY_ELEMENT_OID, binaryTextArray, notificationCapSql, NOTIFICATION_CAP_LIMIT } from '@rtm/db';
import { environmentHookedSql, LOGGED_SQL, logParameters, logSql, type WebhookEventInput } from '@rtm/webhooks';
import { webhookPartitionOf } from '@rtm/bus';
import { namespaceOfSql, userReadsChannelSql } from '@rtm/auth';
import { DEFAULT_LIMITS } from '@rtm/rules';
import type { BatchPlan } from './batch-plan.ts';
import { QUOTA_ANSWER_SQL, quotaCtes } from './quota-sql.ts';

/** SQLSTATEs raised by `rtm_check` inside the write statement (migration 000006). */
export const FENCE_STATE = 'RTM01';
export const WEBHOOK_STATE = 'RTM02';

/**
 * Creates the rows a persisted publish needs ($1 environments, $2 ids) and reads every channel
 * not cached ($3, $4), in one round trip: the second branch cannot see the first's rows, so
 * nothing comes back twice.
 */
export const LOAD_CHANNELS_SQL = `with created as (
         insert into channels (environment_id, id) select * from unnest($1::text[], $2::text[])
         on conflict do nothing returning environment_id, id, pk, last_seq, false as deleting)
       select * from created
       union all
       select c.environment_id, c.id, c.pk, c.last_seq, coalesce(c.deleting_until > now(), false)
       from unnest($3::text[], $4::text[]) as v(environment_id, id)
       -- one key lookup per channel asked for ("offset 0" keeps the subquery a lateral lookup): a
       -- generic plan, expecting ten rows from the arrays, hash-joined them to a scan of the table
       cross join lateral (select * from channels c where c.environment_id = v.environment_id and c.id = v.id offset 0) c`;

/** Idempotency keys ($1 channel pks, $2 keys) used within 24 h. */
export const SEEN_KEYS_SQL = `select k.channel_pk, k.key, k.message_id, k.seq, k.ts
       from unnest($1::bigint[], $2::text[]) as v(channel_pk, key)
       -- one key lookup per key asked for, as in LOAD_CHANNELS_SQL
       cross join lateral (select * from idempotency_keys k where k.channel_pk = v.channel_pk and k.key = v.key offset 0) k
       where k.created_at > now() - interval '24 hours'`;

/**
 * The write of a batch, one statement: the fence, the rows, idempotency keys, notifications and
 * webhook deliveries (the delivery log's rows). Data-modifying CTEs all run, so each insert is guarded by
 * the fence's count (a stale writer writes nothing, never a key violation), and `rtm_check` fails
 * the whole statement when the fence did not match every channel or an environment believed to
 * have no webhook has one. Prepared once per connection (a named statement): Postgres parses and
 * plans it once, and each commit sends only its parameters.
 *
 * Two forms: without mentions (the hot path, `rtm_write_batch`) and with them
 * (`rtm_write_batch_mentions`, see MENTIONS_SQL), so a batch without mentions pays nothing for them.
 */
const writeSql = (mentions: boolean) => `with fence as (
       update channels c set last_seq = v.new_seq
       from unnest($1::bigint[], $2::bigint[], $3::bigint[]) as v(pk, expected, new_seq)
       -- re-checked on the row's latest version: a deletion that marked it meanwhile fails the fence;
       -- "pk = any($1)" finds the rows by the key index: a generic plan expects ten rows from the
       -- arrays and, on a table of a few thousand channels, hash-joined them to a scan of all of them
       where c.pk = any($1::bigint[]) and c.pk = v.pk and c.last_seq = v.expected and (c.deleting_until is null or c.deleting_until <= now())
       returning c.pk),
     inserted as (
       -- content travels as the bytes the client sent, a binary json[] (writeStatement): json stores
       -- the text unchanged (key order, spacing, escapes such as NUL that json_to_recordset refuses)
       insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, "to", mentions, ts)
       select v.channel_pk, v.seq, v.id, v.type, v.kind, v.content, v.sender_id, v.sender_anon,
              case when v.to_list is null then null else array(select json_array_elements_text(v.to_list::json)) end,
              case when v.mention_list is null then null else array(select json_array_elements_text(v.mention_list::json)) end,
              v.ts
       from unnest($4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::json[], $10::text[], $11::bool[],
                   $12::text[], $13::text[], $14::bigint[])
         as v(channel_pk, seq, id, type, kind, content, sender_id, sender_anon, to_list, mention_list, ts)
       where (select count(*) from fence) = $26
       returning 1),
     keyed as (
       insert into idempotency_keys (channel_pk, key, message_id, seq, ts)
       select * from unnest($15::bigint[], $16::text[], $17::text[], $18::bigint[], $19::bigint[])
       where (select count(*) from fence) = $26
       on conflict (channel_pk, key) do update
         set message_id = excluded.message_id, seq = excluded.seq, ts = excluded.ts, created_at = now()
         where idempotency_keys.created_at <= now() - interval '24 hours'
       returning 1),
     ${mentions ? MENTIONS_SQL : NO_MENTIONS_SQL},
     ${logSql(27, '(select count(*) from fence) = $26')},
     ${quotaCtes(`$${mentions ? 41 : 39}`, `$${mentions ? 42 : 40}`, '(select count(*) from fence) = $26')}
     select ${QUOTA_ANSWER_SQL},
            rtm_check((select count(*) from fence) = $26, '${FENCE_STATE}', 'a channel moved under this writer') as fenced,
            rtm_check(not exists (select 1 from unnest($38::text[]) as h(id) where ${environmentHookedSql('h.id')}),
                      '${WEBHOOK_STATE}', 'an environment has a webhook this writer did not know of') as webhooks_known,
            array(select h.id from unnest($25::text[]) as h(id) where ${environmentHookedSql('h.id')}) as hooked,
            (select count(*) from delivery_jobs) as jobs,
            ${LOGGED_SQL} as pushed${
              mentions
                ? `,
            array(select id from notified) as notified,
            (select count(*)::int from readers) as readers`
                : ''
            }`;

/** The hot path: no notification to store ($20-$23 are empty). */
const NO_MENTIONS_SQL = `notified as (
       insert into notifications (id, environment_id, user_id, type, payload, ts)
       select v.id, v.environment_id, v.user_id, 'mention', v.payload::json, $24::bigint
       from unnest($20::text[], $21::text[], $22::text[], $23::text[]) as v(id, environment_id, user_id, payload)
       where (select count(*) from fence) = $26
       returning 1)`;

/**
 * Mention notifications, decided at commit in the statement that commits the message, so what
 * it reads (membership, bans, access, the configuration) is what holds when the message exists:
 * 1. readers: only mentioned users who may read the channel (userReadsChannelSql: no live ban;
 *    membership when its effective access is `members`; anonymous ids where the namespace admits
 *    anonymous readers); everyone else is dropped without a trace;
 * 2. the per-recipient cap (admitNotificationsSql): each user's first notifications of the batch,
 *    in command order, up to what the current minute's window has left; the rest are dropped.
 * `$39` is each notification's channel pk, `$40` the default cap (an environment's deployed
 * `limits.notificationsPerUserPerMinute` overrides it). Answers the ids stored (`notified`) and
 * how many passed step 1 (`readers`), to publish only what was stored and count what was not.
 */
const MENTIONS_SQL = `mentioned as (
       select v.id, v.environment_id, v.user_id, v.payload, v.channel_pk, v.ord
       from unnest($20::text[], $21::text[], $22::text[], $23::text[], $39::bigint[])
         with ordinality as v(id, environment_id, user_id, payload, channel_pk, ord)
       where (select count(*) from fence) = $26),
     rules as (
       -- once per channel, not per mention: its access setting, namespace and environment default
       -- (each channel looked up by its key, as in LOAD_CHANNELS_SQL)
       select c.pk, c.id, c.environment_id, c.access, best.ns, e.default_access
       from (select distinct channel_pk from mentioned) m
       cross join lateral (select * from channels c where c.pk = m.channel_pk offset 0) c
       cross join lateral (select * from environments e where e.id = c.environment_id offset 0) e
       left join lateral (select * from config_deployments d where d.id = e.active_deployment_id offset 0) d on true
       cross join lateral (select ${namespaceOfSql(`d.config -> 'namespaces'`, 'c.id')} as ns) best),
     readers as (
       select n.id, n.environment_id, n.user_id, n.payload, n.ord
       from mentioned n
       join rules c on c.pk = n.channel_pk
       where ${userReadsChannelSql({
         environment: 'c.environment_id',
         user: 'n.user_id',
         channel: 'c.id',
         own: 'c.access',
         namespace: 'c.ns',
         environmentDefault: 'c.default_access',
       })}),
     wanted as (
       select r.environment_id, r.user_id, count(*)::int as n from readers r group by r.environment_id, r.user_id),
     caps as (
       select e.id as environment_id, ${notificationCapSql('d.config', '$40::int')} as cap
       from (select distinct environment_id from wanted) w
       cross join lateral (select * from environments e where e.id = w.environment_id offset 0) e
       left join lateral (select * from config_deployments d where d.id = e.active_deployment_id offset 0) d on true),
     counted as (
       ${admitNotificationsSql('wanted', (environment) => `(select k.cap from caps k where k.environment_id = ${environment})`)}),
     notified as (
       insert into notifications (id, environment_id, user_id, type, payload, ts)
       select r.id, r.environment_id, r.user_id, 'mention', r.payload::json, $24::bigint
       from (select r.*, row_number() over (partition by r.environment_id, r.user_id order by r.ord) as rank from readers r) r
       join counted k on k.environment_id = r.environment_id and k.user_id = r.user_id
       where r.rank <= k.admitted
       returning id)`;

export const WRITE_SQL = writeSql(false);
export const WRITE_MENTIONS_SQL = writeSql(true);

/**
 * The write statement of a planned batch: its form (with mentions or without), and its
 * parameters in the order the text numbers them: the contents in one binary json[] ($9);
 * `environments`: every environment of the batch ($25); `hooked`: the webhook events of those
 * not believed hookless ($27-$37, their deliveries appended to the delivery log, logSql:
 * docs/webhooks.md, "The delivery log"); `hookless`: the environments believed to have no
 * webhook ($38), checked by the statement; `counted`: the messages each environment stores (the
 * last two parameters, quota-sql.ts).
 */
export function writeStatement(
  plan: Pick<BatchPlan, 'messages' | 'keys' | 'notifications' | 'advanced' | 'counted'>,
  batch: {
    now: number;
    environments: readonly string[];
    hooked: readonly WebhookEventInput[];
    /** Each hooked event's webhookBody, when the caller made them already (default: made here). */
    bodies?: readonly string[];
    hookless: readonly string[];
    pushLeaseMs: number;
  },
): { name: string; text: string; values: unknown[] } {
  const { messages, keys, notifications, advanced } = plan;
  const list = (values: string[] | null) => (values ? JSON.stringify(values) : null);
  const mentions = notifications.length > 0;
  return {
    name: mentions ? 'rtm_write_batch_mentions' : 'rtm_write_batch',
    text: mentions ? WRITE_MENTIONS_SQL : WRITE_SQL,
    values: [
      advanced.map((a) => a.pk),
      advanced.map((a) => a.expected),
      advanced.map((a) => a.next),
      messages.map((m) => m.channel_pk),
      messages.map((m) => m.seq),
      messages.map((m) => m.id),
      messages.map((m) => m.type),
      messages.map((m) => m.kind),
      // every content in ONE binary parameter, each as its bytes behind its length: no escaping
      // here, no array literal to parse in Postgres (binary-array.ts)
      binaryTextArray(
        ARRAY_ELEMENT_OID.json,
        messages.map((m) => m.contentBytes ?? m.content),
      ),
      messages.map((m) => m.sender_id),
      messages.map((m) => m.sender_anon),
      messages.map((m) => list(m.to)),
      messages.map((m) => list(m.mentions)),
      messages.map((m) => m.ts),
      keys.map((k) => k.channel_pk),
      keys.map((k) => k.key),
      keys.map((k) => k.message_id),
      keys.map((k) => k.seq),
      keys.map((k) => k.ts),
      notifications.map((n) => n.id),
      notifications.map((n) => n.environment_id),
      notifications.map((n) => n.user_id),
      notifications.map((n) => n.payload),
      batch.now,
      batch.environments,
      advanced.length,
      ...logParameters(batch.hooked, webhookPartitionOf, batch.bodies),
      batch.hookless,
      ...(mentions ? [notifications.map((n) => n.channel_pk), DEFAULT_LIMITS[NOTIFICATION_CAP_LIMIT]] : []),
      [...plan.counted.keys()],
      [...plan.counted.values()],
    ],
  };
}

/** An erasure job's retraction counted ($1 job, $2 environment, $3 lease token): none once the lease was taken over. */
export const ERASURE_COUNT_SQL = `update erasure_jobs set retracted = retracted + 1, updated_at = now()
       where id = $1 and environment_id = $2 and lease_token = $3 and status = 'running'`;
