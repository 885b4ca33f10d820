/**
 * What a message's retraction or deletion does to its webhook deliveries (docs/webhooks.md,
 * "Retracted and erased messages"). Called on the transaction that retracts the message (the
 * channel-node's, fenced by the erasure's token when an erasure asked for it) or deletes it (a
 * channel deletion's fenced steps), so the ledger changes with the message, exactly then:
 *
 * - every `message.published` delivery of the message has its stored body replaced by a redacted
 *   one (`REDACTED_BODY`: the event's id, type, environment and channel, `"redacted": true`, no
 *   data), whatever its status: a ledger that kept the content would keep what was erased;
 * - one not yet delivered (pending, in backoff or deferred, or dropped) ends `cancelled` with
 *   `lastError` `message_retracted`: no retry, manual retry or recovery ever takes it again (the
 *   claim takes only pending rows, a manual retry only dropped ones, a recovery only dropped
 *   ones), and a record of an attempt already in flight is fenced off by the status;
 * - a delivered one stays `delivered` (it was), with its body redacted.
 *
 * The deliveries that were pending under a live lease (a first attempt whose row its notice
 * carried, or a claim) are returned: the caller tells their partition's owner to let go of the
 * body it holds in memory (`withdrawnEntries`, push-notice.ts), so a pushed first attempt not yet
 * started is never sent. One already on the wire cannot be called back.
 */
import type { PoolClient } from '@rtm/db';

/** The `lastError` of a delivery cancelled because its message was retracted or deleted. */
export const MESSAGE_RETRACTED = 'message_retracted';

/** The stored body of a redacted delivery (SQL over the row, alias `d`). */
const REDACTED_BODY = `json_build_object('id', d.event_id, 'type', d.event_type, 'environmentId', d.environment_id,
           'channelId', d.channel_id, 'redacted', true)::text`;

/**
 * $1 environment, $2 message ids. Rows locked in id order (two redactions never wait on each
 * other in opposite orders); those whose status or body already says so are not written again.
 */
export const REDACT_SQL = `with affected as (
         select d.id, d.status, d.locked_until > now() as leased from webhook_deliveries d
         where d.environment_id = $1 and d.event_id = any($2::text[]) and d.event_type = 'message.published'
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
       )
       select a.id, coalesce(a.leased and a.status = 'pending', false) as in_flight
       from affected a join redacted r on r.id = a.id`;

/** A delivery that was pending under a live lease when its message went. */
export interface WithdrawnDelivery {
  id: string;
  environmentId: string;
}

/**
 * Redacts the deliveries of the environment's messages `messageIds` (REDACT_SQL) on the caller's
 * transaction. Returns those that were pending under a live lease, to withdraw from their owner.
 */
export async function redactMessageDeliveries(client: PoolClient, environmentId: string, messageIds: readonly string[]): Promise<WithdrawnDelivery[]> {
  if (messageIds.length === 0) return [];
  const { rows } = await client.query<{ id: string; in_flight: boolean }>({ name: 'rtm_webhook_redact', text: REDACT_SQL, values: [environmentId, messageIds] });
  return rows.filter((row) => row.in_flight).map((row) => ({ id: row.id, environmentId }));
}
