-- Presence-driven webhook events (docs/webhook-events.md, "Channel and presence events"): the five
-- types join the ledger's check, and the endpoints that name one of them get an index of their
-- own. Gateways read those endpoints (and only those) every few seconds to know where the events
-- are wanted, so a cluster whose endpoints name none reads an empty index.
alter table webhook_deliveries drop constraint webhook_deliveries_event_type_check;
alter table webhook_deliveries add constraint webhook_deliveries_event_type_check check (event_type in (
  'message.published', 'message.retracted', 'message.updated', 'message.reactions',
  'member.added', 'member.removed', 'member.banned', 'member.unbanned',
  'channel.deleted', 'user.messages_erased', 'webhook.test',
  'endpoint.disabled', 'delivery.dropped',
  'channel.occupied', 'channel.vacated', 'channel.occupancy', 'presence.entered', 'presence.left')) not valid;
alter table webhook_deliveries validate constraint webhook_deliveries_event_type_check;
create index webhook_endpoints_presence_idx on webhook_endpoints (environment_id)
  where not disabled
    and event_types && array['channel.occupied', 'channel.vacated', 'channel.occupancy', 'presence.entered', 'presence.left']::text[];
