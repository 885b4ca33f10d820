/**
 * What a message's retraction or deletion does to its webhook deliveries (docs/webhooks.md,
 * "Retracted and erased messages"). Called on the transaction that retracts the message (the
 * channel-node's, fenced by the erasure's token when an erasure asked for it) or deletes it (a
 * channel deletion's fenced steps), so the ledger changes with the message, exactly then:
 *
 * - every `message.published` delivery of the message, and every `message.updated` of its edits
 *   (event ids `<message id>_v<version>`, messageEventIds in libs/db), has its stored body replaced by a redacted
 *   one (`REDACTED_BODY`: the event's id, type, environment and channel, `"redacted": true`, no
 *   data), whatever its status: a ledger that kept the content would keep what was erased;
 * - one not yet delivered (pending, in backoff or deferred, or dropped) ends `cancelled` with
 *   `lastError` `message_retracted`: no retry, manual retry or recovery ever takes it again (the
 *   claim takes only pending rows, a manual retry only dropped ones, a recovery only dropped
 *   ones), and a record of an attempt already in flight is fenced off by the status;
 * - a delivered one stays `delivered` (it was), with its body redacted;
 * - a delivery that is only a row of the delivery log gets the redacted body there too, and one
 *   not yet attempted (no outcome) a ledger row, `cancelled` as above, that it is from then on.
 *
 * The deliveries that were pending under a live lease (a first attempt whose row its notice
 * carried, or a claim), and the log's that were not yet attempted, are returned: the caller tells their partition's owner to let go of the
 * body it holds in memory (`withdrawnEntries`, push-notice.ts), so a pushed first attempt not yet
 * started is never sent. One already on the wire cannot be called back.
 */
import type { PoolClient } from '@rtm/db';

/** The `lastError` of a delivery cancelled because its message was retracted or deleted. */
export const MESSAGE_RETRACTED = 'message_retracted';

/** Above every 16-character [0-9a-z] tail of a delivery id, whatever the collation. */
const ID_RANGE_END = 'z'.repeat(17);

/** The stored body of a redacted delivery (SQL over the row `alias`: a ledger or a log row). */
const redactedBody = (alias: string) => `json_build_object('id', ${alias}.event_id, 'type', ${alias}.event_type, 'environmentId', ${alias}.environment_id,
           'channelId', ${alias}.channel_id, 'redacted', true)::text`;
const REDACTED_BODY = redactedBody('d');

/**
 * $1 environment, $2 message ids. Rows locked in id order (two redactions never wait on each
 * other in opposite orders); those whose status or body already says so are not written again.
 *
 * The message's rows of the delivery log (`webhook_log`; their ids begin with the message's time,
 * so the (environment_id, id) index finds them by range) get the same redacted body. One with
 * neither an outcome nor a ledger row (not yet attempted) gets a ledger row with its id, its
 * redacted body and `cancelled` (`message_retracted`, never attempted): the ledger row is the
 * delivery's truth from then on, so the ledger shows it cancelled and nothing takes it again; it
 * is returned as withdrawn, since its owner may hold the body in memory. A ledger row the owner committed for it meanwhile (its first attempt failed, after this
 * statement's snapshot) is redacted and cancelled by the conflict instead. A log row whose
 * endpoint was deleted is only redacted and withdrawn: there is no endpoint to keep a ledger row
 * for.
 */
export const REDACT_SQL = `with affected as (
         select d.id, d.status, d.locked_until > now() as leased from webhook_deliveries d
         where d.environment_id = $1 and d.event_id = any($2::text[]) and d.event_type in ('message.published', 'message.updated')
         order by d.id
         for update
       ),
       redacted as (
         update webhook_deliveries d set
           body = ${REDACTED_BODY},
           status = case when a.status = 'delivered' then a.status else 'cancelled' end,
           last_error = case when a.status = 'delivered' then d.last_error else '${MESSAGE_RETRACTED}' end,
           next_attempt_at = case when a.status = 'delivered' then d.next_attempt_at end,
           locked_until = null,
           updated_at = case when a.status = 'delivered' then d.updated_at else now() end
         from affected a
         where d.id = a.id and (a.status not in ('delivered', 'cancelled') or d.body <> ${REDACTED_BODY})
         returning d.id
       ),
       -- each message's by its range of the (environment_id, id) index, locked in id order (the
       -- lateral subquery that locks is never flattened into a join over the whole log); the
       -- upper bound is 17 z's (an id has 16 characters of [0-9a-z] after the time): it sorts
       -- above them in byte order and in the usual locales' collations alike, where '~' does not
       logged as (
         select l.* from (select distinct unnest($2::text[]) as id order by 1) as m
         cross join lateral (
           select l.id, l.created_at, l.environment_id, l.endpoint_id, l.event_id, l.event_type, l.channel_id, l.url
           from webhook_log l
           where l.environment_id = $1
             and l.id >= 'dlv_' || substr(m.id, 5, 10) and l.id < 'dlv_' || substr(m.id, 5, 10) || '${ID_RANGE_END}'
             and l.event_id = m.id and l.event_type in ('message.published', 'message.updated')
           order by l.id
           for update) as l
       ),
       log_redacted as (
         update webhook_log l set body = ${redactedBody('l')}
         from logged g
         where l.environment_id = $1 and l.id = g.id and l.created_at = g.created_at and l.body <> ${redactedBody('l')}
       ),
       -- not yet attempted: neither an outcome nor a ledger row (by id, or by event and endpoint)
       unattempted as (
         select distinct on (g.id) g.* from logged g
         where not exists (select 1 from webhook_outcomes o where o.delivery_id = g.id and o.created_at = g.created_at)
           and not exists (select 1 from webhook_deliveries x where x.id = g.id)
           and not exists (select 1 from webhook_deliveries x
                           where x.environment_id = g.environment_id and x.event_id = g.event_id
                             and coalesce(x.endpoint_id, '') = coalesce(g.endpoint_id, ''))
         order by g.id
       ),
       log_cancelled as (
         insert into webhook_deliveries as d (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body,
                                              status, attempts, last_error, next_attempt_at, locked_until, created_at, updated_at)
         select u.id, u.environment_id, u.endpoint_id, u.event_id, u.event_type, u.channel_id, u.url, ${redactedBody('u')},
                'cancelled', 0, '${MESSAGE_RETRACTED}', null, null, u.created_at, now()
         from unattempted u
         where u.endpoint_id is null or exists (select 1 from webhook_endpoints e where e.id = u.endpoint_id)
         order by u.id
         on conflict (environment_id, event_id, (coalesce(endpoint_id, ''))) do update set
           body = excluded.body,
           status = case when d.status = 'delivered' then d.status else 'cancelled' end,
           last_error = case when d.status = 'delivered' then d.last_error else '${MESSAGE_RETRACTED}' end,
           next_attempt_at = case when d.status = 'delivered' then d.next_attempt_at end,
           locked_until = null,
           updated_at = case when d.status = 'delivered' then d.updated_at else now() end
         returning d.id
       )
       select a.id, coalesce(a.leased and a.status = 'pending', false) as in_flight
       from affected a join redacted r on r.id = a.id
       union all
       -- every one not yet attempted, whether it got its ledger row (log_cancelled, which runs
       -- though nothing reads it) or its endpoint is gone
       select u.id, true from unattempted u`;

/** A delivery that was pending under a live lease (or not yet attempted from the log) when its message went. */
export interface WithdrawnDelivery {
  id: string;
  environmentId: string;
}

/**
 * Redacts the deliveries of the environment's messages `messageIds` (REDACT_SQL) on the caller's
 * transaction. Returns those that were pending under a live lease or not yet attempted from the
 * log, to withdraw from their owner.
 */
export async function redactMessageDeliveries(client: PoolClient, environmentId: string, messageIds: readonly string[]): Promise<WithdrawnDelivery[]> {
  if (messageIds.length === 0) return [];
  const { rows } = await client.query<{ id: string; in_flight: boolean }>({
    name: 'rtm_webhook_redact',
    text: REDACT_SQL,
    values: [environmentId, messageIds],
  });
  return rows.filter((row) => row.in_flight).map((row) => ({ id: row.id, environmentId }));
}
