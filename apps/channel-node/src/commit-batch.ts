/**
 * One group commit: every command a partition actor took from its mailbox, written in ONE
 * transaction. Guarantees:
 * - seq: each channel advances from the last_seq this writer read, through a fenced
 *   `update … where last_seq = expected`; if another writer moved it, the whole batch rolls
 *   back (FenceError) and nothing is half-written, so seqs never repeat and never skip;
 * - idempotency: a key seen on the channel within 24 h returns the first result and writes
 *   nothing; a key repeated inside one batch gets the earlier command's result;
 * - retraction: a second retraction of a message changes nothing and emits nothing; an erasure
 *   job's retraction happens, and counts in the job's `retracted`, only while the job still
 *   carries the runner's lease token, checked and counted in this transaction;
 * - webhook deliveries and mention notifications commit (or roll back) with the messages; a
 *   mention is stored only for a user who may read the channel then, within their cap. A
 *   publish's deliveries get no job: their ids are in the outcome (`deliveries`), published
 *   after commit as a notice that wakes a dispatcher (docs/webhooks.md);
 * - deletion: while a channel's deletion runs (`channels.deleting_until` in the future) the fence
 *   does not advance it, so no message of it commits: a cached writer fails the fence and reloads,
 *   and a loaded channel that is being deleted gets its persisted publishes refused.
 * Nothing here publishes: the actor publishes the returned frames only after commit.
 */
import type { PoolClient } from '@rtm/db';
import { admitNotificationsSql, newId, notificationCapSql, NOTIFICATION_CAP_LIMIT } from '@rtm/db';
import { enqueueParameters, enqueueSql, enqueueWebhookEvents, type WebhookEventInput } from '@rtm/webhooks';
import { namespaceOfSql, userReadsChannelSql } from '@rtm/auth';
import { DEFAULT_LIMITS } from '@rtm/limits';
import { messageEnvelopeText, type ChannelCommand, type CommandReply, type MessageEnvelope } from '@rtm/schemas';
import {
  channelKey,
  envelopeOf,
  keyOf,
  planBatch,
  type BatchOutcome,
  type ChannelState,
  type MessageRow,
  type PublishCommand,
  type RetractCommand,
} from './batch-plan.ts';

export { channelKey, type BatchOutcome, type ChannelState, type PublishCommand } from './batch-plan.ts';

/** Another writer advanced a channel since we read it: roll back, reload, retry. */
export class FenceError extends Error {
  override name = 'FenceError';
}

/** SQLSTATEs raised by `rtm_check` inside the write statement (migration 000006). */
const FENCE_STATE = 'RTM01';
const WEBHOOK_STATE = 'RTM02';

/**
 * Which environments this node believes have no webhook, learnt from each commit's answer. The
 * write leaves out the delivery bodies of those environments (no JSON to build for them) and
 * checks, in the same statement, that none of them has a webhook now: if one has, the
 * statement fails as a whole, the belief is dropped and the batch is written again with them.
 * So a belief that is out of date costs one retry, never a delivery.
 */
export class WebhookBelief {
  readonly #without = new Set<string>();

  hookless(environmentId: string): boolean {
    return this.#without.has(environmentId);
  }

  learn(environments: readonly string[], hooked: readonly string[]): void {
    const withHook = new Set(hooked);
    for (const environmentId of environments) {
      if (withHook.has(environmentId)) this.#without.delete(environmentId);
      else this.#without.add(environmentId);
    }
    // bounded: an environment seen once long ago is simply looked at again
    if (this.#without.size > 100_000) this.#without.clear();
  }

  forget(environments: readonly string[]): void {
    for (const environmentId of environments) this.#without.delete(environmentId);
  }
}

/**
 * Whether the batch is written by ONE statement, without begin/commit: every channel is in the
 * cache (nothing to create or load) and nothing is retracted (a retraction reads and updates
 * rows after the inserts). A single statement is atomic on its own, so this saves two round
 * trips; idempotency keys, when present, are read before it (a read needs no transaction: the
 * fence guards what is written).
 */
export function writesInOneStatement(commands: readonly ChannelCommand[], cache: Map<string, ChannelState>): boolean {
  return commands.every((c) => c.op === 'publish' && cache.has(channelKey(c.environmentId, c.channelId)));
}

/** A batch of ephemeral publishes on cached channels needs no transaction at all. */
export function ephemeralOnly(commands: readonly ChannelCommand[], cache: Map<string, ChannelState>): boolean {
  return commands.every(
    (c) => c.op === 'publish' && c.ephemeral && cache.has(channelKey(c.environmentId, c.channelId)),
  );
}

/** Ephemeral frames only (see ephemeralOnly): no I/O. */
export function ephemeralBatch(commands: readonly PublishCommand[], cache: Map<string, ChannelState>): BatchOutcome {
  return planBatch(commands, cache, new Map(), Date.now(), newId).outcome;
}

/**
 * The write of a batch, one statement: the fence, the rows, idempotency keys, notifications and
 * webhook deliveries with their jobs. Data-modifying CTEs all run, so each insert is guarded by
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
       -- re-checked on the row's latest version: a deletion that marked it meanwhile fails the fence
       where c.pk = v.pk and c.last_seq = v.expected and (c.deleting_until is null or c.deleting_until <= now())
       returning c.pk),
     inserted as (
       -- content travels as the text the client sent and is cast per row: json stores the text unchanged
       -- (key order, spacing, escapes such as NUL that json_to_recordset refuses)
       insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, "to", mentions, ts)
       select v.channel_pk, v.seq, v.id, v.type, v.kind, v.content::json, v.sender_id, v.sender_anon,
              case when v.to_list is null then null else array(select json_array_elements_text(v.to_list::json)) end,
              case when v.mention_list is null then null else array(select json_array_elements_text(v.mention_list::json)) end,
              v.ts
       from unnest($4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bool[],
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
     ${enqueueSql(27, '(select count(*) from fence) = $26', false)}
     select rtm_check((select count(*) from fence) = $26, '${FENCE_STATE}', 'a channel moved under this writer') as fenced,
            rtm_check(not exists (select 1 from environments e where e.id = any($35::text[]) and e.webhook_url is not null),
                      '${WEBHOOK_STATE}', 'an environment has a webhook this writer did not know of') as webhooks_known,
            array(select e.id from environments e where e.id = any($25::text[]) and e.webhook_url is not null) as hooked,
            (select count(*) from delivery_jobs) as jobs,
            array(select id from deliveries) as deliveries,
            array(select environment_id from deliveries) as delivery_environments${mentions ? `,
            array(select id from notified) as notified,
            (select count(*)::int from readers) as readers` : ''}`;

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
 * `$36` is each notification's channel pk, `$37` the default cap (an environment's deployed
 * `limits.notificationsPerUserPerMinute` overrides it). Answers the ids stored (`notified`) and
 * how many passed step 1 (`readers`), to publish only what was stored and count what was not.
 */
const MENTIONS_SQL = `mentioned as (
       select v.id, v.environment_id, v.user_id, v.payload, v.channel_pk, v.ord
       from unnest($20::text[], $21::text[], $22::text[], $23::text[], $36::bigint[])
         with ordinality as v(id, environment_id, user_id, payload, channel_pk, ord)
       where (select count(*) from fence) = $26),
     rules as (
       -- once per channel, not per mention: its access setting, namespace and environment default
       select c.pk, c.id, c.environment_id, c.access, best.ns, e.default_access
       from channels c
       join environments e on e.id = c.environment_id
       left join config_deployments d on d.id = e.active_deployment_id
       cross join lateral (select ${namespaceOfSql(`d.config -> 'namespaces'`, 'c.id')} as ns) best
       where c.pk in (select channel_pk from mentioned)),
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
       select e.id as environment_id, ${notificationCapSql('d.config', '$37::int')} as cap
       from environments e left join config_deployments d on d.id = e.active_deployment_id
       where e.id in (select environment_id from wanted)),
     counted as (
       ${admitNotificationsSql('wanted', (environment) => `(select k.cap from caps k where k.environment_id = ${environment})`)}),
     notified as (
       insert into notifications (id, environment_id, user_id, type, payload, ts)
       select r.id, r.environment_id, r.user_id, 'mention', r.payload::json, $24::bigint
       from (select r.*, row_number() over (partition by r.environment_id, r.user_id order by r.ord) as rank from readers r) r
       join counted k on k.environment_id = r.environment_id and k.user_id = r.user_id
       where r.rank <= k.admitted
       returning id)`;

const WRITE_SQL = writeSql(false);
const WRITE_MENTIONS_SQL = writeSql(true);

/**
 * Writes the batch on `client`: inside a transaction the caller opened, or, when
 * `writesInOneStatement` says so, as one statement on its own. `cache` is read, never written:
 * the caller applies `states` only after commit. A channel that moved under this writer, or a
 * webhook the belief did not know of, fails the whole write with a FenceError (after dropping
 * the belief): reload and retry.
 */
export async function writeBatch(
  client: PoolClient,
  commands: readonly ChannelCommand[],
  cache: Map<string, ChannelState>,
  webhooks: WebhookBelief,
): Promise<BatchOutcome> {
  const now = Date.now();

  // 1. channel rows: created on first persisted publish, loaded when not cached
  const needed = new Map<string, { environmentId: string; channelId: string; create: boolean }>();
  for (const c of commands) {
    const key = channelKey(c.environmentId, c.channelId);
    const create = c.op === 'publish' && !c.ephemeral;
    const entry = needed.get(key);
    if (entry) entry.create ||= create;
    else needed.set(key, { environmentId: c.environmentId, channelId: c.channelId, create });
  }
  const states = new Map<string, ChannelState>();
  const deleting = new Set<string>();
  const toLoad = [...needed].filter(([key]) => !cache.has(key));
  for (const [key] of needed) {
    const cached = cache.get(key);
    if (cached) states.set(key, { ...cached });
  }
  if (toLoad.length > 0) {
    // one round trip: create the rows a persisted publish needs, read every missing one (the
    // second branch cannot see the first's rows, so nothing comes back twice)
    const creating = toLoad.filter(([, v]) => v.create);
    const { rows } = await client.query<{ environment_id: string; id: string; pk: number; last_seq: number; deleting: boolean }>(
      `with created as (
         insert into channels (environment_id, id) select * from unnest($1::text[], $2::text[])
         on conflict do nothing returning environment_id, id, pk, last_seq, false as deleting)
       select * from created
       union all
       select c.environment_id, c.id, c.pk, c.last_seq, coalesce(c.deleting_until > now(), false) from channels c
       join unnest($3::text[], $4::text[]) as v(environment_id, id) on c.environment_id = v.environment_id and c.id = v.id`,
      [
        creating.map(([, v]) => v.environmentId),
        creating.map(([, v]) => v.channelId),
        toLoad.map(([, v]) => v.environmentId),
        toLoad.map(([, v]) => v.channelId),
      ],
    );
    for (const row of rows) {
      states.set(channelKey(row.environment_id, row.id), { pk: row.pk, lastSeq: row.last_seq });
      if (row.deleting) deleting.add(channelKey(row.environment_id, row.id));
    }
  }

  // 2. idempotency keys already used within 24 h
  const keyed = commands.filter((c): c is PublishCommand => c.op === 'publish' && !c.ephemeral && c.idempotencyKey !== undefined);
  const seen = new Map<string, { id: string; seq: number; timestamp: number }>();
  if (keyed.length > 0) {
    const pks = keyed.map((c) => states.get(channelKey(c.environmentId, c.channelId))!.pk);
    const { rows } = await client.query<{ channel_pk: number; key: string; message_id: string; seq: number; ts: number }>(
      `select k.channel_pk, k.key, k.message_id, k.seq, k.ts from idempotency_keys k
       join unnest($1::bigint[], $2::text[]) as v(channel_pk, key) on k.channel_pk = v.channel_pk and k.key = v.key
       where k.created_at > now() - interval '24 hours'`,
      [pks, keyed.map((c) => c.idempotencyKey!)],
    );
    for (const row of rows) seen.set(keyOf(row.channel_pk, row.key), { id: row.message_id, seq: row.seq, timestamp: row.ts });
  }

  // 3. publishes, in command order (pure: batch-plan.ts)
  const plan = planBatch(commands, states, seen, now, newId, deleting);
  const outcome = plan.outcome;
  const { messages, keys, notifications, events } = plan;
  const advanced = plan.advanced;

  // 4. everything in ONE statement (WRITE_SQL): round trips are what a commit costs
  const environments = [...new Set(commands.map((c) => c.environmentId))];
  const hookless = environments.filter((e) => webhooks.hookless(e));
  const hooked = events.filter((e) => !webhooks.hookless(e.environmentId));
  const list = (values: string[] | null) => (values ? JSON.stringify(values) : null);
  const mentions = notifications.length > 0;
  const written = await client
    .query<{ hooked: string[]; deliveries: string[]; delivery_environments: string[]; notified?: string[]; readers?: number }>({
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
        messages.map((m) => m.content),
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
        now,
        environments,
        advanced.length,
        ...enqueueParameters(hooked),
        hookless,
        ...(mentions ? [notifications.map((n) => n.channel_pk), DEFAULT_LIMITS[NOTIFICATION_CAP_LIMIT]] : []),
      ],
    })
    .catch((error: unknown) => {
      const state = (error as { code?: unknown }).code;
      if (state === FENCE_STATE) throw new FenceError('a channel moved under this writer');
      if (state === WEBHOOK_STATE) {
        webhooks.forget(hookless);
        throw new FenceError('an environment has a webhook this writer did not know of');
      }
      throw error;
    });
  const answer = written.rows[0]!;
  webhooks.learn(environments, answer.hooked);
  // no job for these: the committer publishes their ids after commit (a notice to the dispatchers)
  if (answer.deliveries.length > 0) {
    outcome.deliveries = answer.deliveries.map((id, i) => ({ id, environmentId: answer.delivery_environments[i]! }));
  }
  if (mentions) {
    // publish only what was stored; the rest was dropped (not a reader, or over the cap)
    const stored = new Set(answer.notified);
    outcome.notifications = outcome.notifications.filter((n) => stored.has(n.frame.id));
    outcome.mentionsDropped = { unreadable: notifications.length - answer.readers!, overCap: answer.readers! - stored.size };
  }

  // 5. retractions, after the inserts so a message published earlier in this batch is visible
  const published = events.length;
  for (const [index, c] of commands.entries()) {
    if (c.op !== 'retract') continue;
    outcome.replies[index] = await retract(client, index, c, outcome.states.get(channelKey(c.environmentId, c.channelId)), outcome, events);
  }

  // the publishes' deliveries are recorded by the statement above, a retraction's here (its
  // batch is in a transaction; the join skips environments without a webhook)
  if (events.length > published) await enqueueWebhookEvents(client, events.slice(published));
  return outcome;
}

async function retract(
  client: PoolClient,
  index: number,
  c: RetractCommand,
  state: ChannelState | undefined,
  outcome: BatchOutcome,
  events: WebhookEventInput[],
): Promise<CommandReply> {
  if (!state) return { ok: false, code: 'not_found', reason: 'no such message in this channel' };
  const { rows } = await client.query<Omit<MessageRow, 'content' | 'channel_pk'> & { retracted: boolean }>(
    `select seq, id, type, kind, sender_id, sender_anon, "to", mentions, ts, retracted_at is not null as retracted
     from messages where channel_pk = $1 and id = $2 for update`,
    [state.pk, c.messageId],
  );
  const row = rows[0];
  if (!row) return { ok: false, code: 'not_found', reason: 'no such message in this channel' };
  if (c.onlySender !== undefined && (row.sender_id !== c.onlySender || row.kind !== 'user')) {
    return { ok: false, code: 'forbidden', reason: 'only the sender may retract this message' };
  }
  const result = { ok: true as const, result: { id: row.id, seq: row.seq, retracted: true as const } };
  if (row.retracted) return result;
  if (c.erasure) {
    // the lease fence: counted here, with the retraction, or neither (the row lock on the job
    // orders this against a claim that replaces the token)
    const counted = await client.query(
      `update erasure_jobs set retracted = retracted + 1, updated_at = now()
       where id = $1 and environment_id = $2 and lease_token = $3 and status = 'running'`,
      [c.erasure.jobId, c.environmentId, c.erasure.leaseToken],
    );
    if (counted.rowCount === 0) return { ok: false, code: 'unavailable', reason: "the erasure job's lease was taken over; nothing retracted" };
  }
  await client.query('update messages set content = null, retracted_at = now() where channel_pk = $1 and seq = $2', [
    state.pk,
    row.seq,
  ]);
  const tombstone = messageEnvelopeText({
    ...row,
    kind: row.kind as MessageEnvelope['kind'],
    content: null,
    sender: { id: row.sender_id, anon: row.sender_anon },
    timestamp: row.ts,
    retracted: true,
    ephemeral: false,
  });
  const frame: Record<string, unknown> = { op: 'retract', id: row.id, seq: row.seq };
  if (c.reason !== undefined) frame.reason = c.reason;
  // addressed messages: the gateway's feed delivers the retraction to the same audience
  if (row.to) {
    frame.to = row.to;
    frame.sender = { id: row.sender_id, anon: row.sender_anon };
  }
  outcome.frames.push({ index, environmentId: c.environmentId, channelId: c.channelId, text: JSON.stringify(frame) });
  events.push({
    environmentId: c.environmentId,
    channelId: c.channelId,
    eventId: `retract_${row.id}`,
    type: 'message.retracted',
    timestamp: Date.now(),
    data: tombstone,
  });
  outcome.logs.push({
    index,
    environmentId: c.environmentId,
    event: 'message.retracted',
    data: { channelId: c.channelId, messageId: row.id, seq: row.seq },
  });
  return result;
}
