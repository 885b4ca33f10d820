-- A delivery of a message that was retracted (by its sender or a moderator, by a user's erasure)
-- or deleted with its channel before it was delivered ends `cancelled`: its stored body is
-- redacted in the transaction that retracts or deletes the message, and it is never sent
-- (docs/webhooks.md, "Retracted and erased messages"). Delivered rows keep their status; their
-- body is redacted too.
alter table webhook_deliveries drop constraint webhook_deliveries_status_check;
alter table webhook_deliveries add constraint webhook_deliveries_status_check
  check (status in ('pending', 'delivered', 'dropped', 'cancelled'));
