-- A delivery of a message that was retracted (by its sender or a moderator, by a user's erasure)
-- or deleted with its channel before it was delivered ends `cancelled`: its stored body is
-- redacted in the transaction that retracts or deletes the message, and it is never sent
-- (docs/webhooks.md, "Retracted and erased messages"). Delivered rows keep their status; their
-- body is redacted too.
alter table webhook_deliveries drop constraint webhook_deliveries_status_check;
alter table webhook_deliveries add constraint webhook_deliveries_status_check
  check (status in ('pending', 'delivered', 'dropped', 'cancelled'));

-- Deliveries recorded before this rule whose message is retracted now get the same treatment
-- (libs/webhooks/src/redaction.ts, REDACT_SQL): redacted body, `cancelled` unless delivered.
update webhook_deliveries d set
  body = json_build_object('id', d.event_id, 'type', d.event_type, 'environmentId', d.environment_id,
           'channelId', d.channel_id, 'redacted', true)::text,
  status = case when d.status = 'delivered' then d.status else 'cancelled' end,
  last_error = case when d.status = 'delivered' then d.last_error else 'message_retracted' end,
  next_attempt_at = case when d.status = 'delivered' then d.next_attempt_at end,
  locked_until = null,
  updated_at = case when d.status = 'delivered' then d.updated_at else now() end
from messages m
where d.event_type = 'message.published' and m.id = d.event_id and m.retracted_at is not null
  and exists (select 1 from channels c where c.pk = m.channel_pk and c.environment_id = d.environment_id);
