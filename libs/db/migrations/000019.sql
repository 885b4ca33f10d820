-- The delivery log: the outbox of a publish's webhook deliveries (docs/webhooks.md, "The
-- delivery log"). The commit that persists a message appends one narrow row per (event,
-- endpoint) here instead of a `webhook_deliveries` row; a first attempt that succeeds appends one
-- `webhook_outcomes` row and nothing else. Only a delivery that fails its first attempt (or must
-- wait in the ledger) becomes a `webhook_deliveries` row, with its exact body, and from then on
-- it is retried, dropped and recovered as before.
--
-- Both tables are append-only and partitioned by day on the log row's `created_at` (an outcome
-- carries its delivery's), so retention drops whole partitions (`prune_webhooks`) instead of
-- deleting rows. `tx` is the committing transaction's id: each webhook partition's owner reads the
-- log in `(partition, tx)` order above the position it keeps in `webhook_positions`, a position it
-- advances only past deliveries whose outcome is durable (an outcome row or a ledger row).
create table webhook_log (
  id text not null,
  environment_id text not null,
  endpoint_id text,
  event_id text not null,
  event_type text not null,
  channel_id text,
  url text not null,
  body text not null,
  partition smallint not null,
  tx xid8 not null default pg_current_xact_id(),
  created_at timestamptz not null default now()
) partition by range (created_at);
-- the owner's reads above its position
create index webhook_log_position_idx on webhook_log (partition, tx);
-- the ledger's pages (newest first by id), one delivery by id, an event's deliveries (the id
-- begins with the event's time)
create index webhook_log_ledger_idx on webhook_log (environment_id, id);

create table webhook_outcomes (
  delivery_id text not null,
  -- the log row's, so an outcome lives and is dropped with its delivery's partition
  created_at timestamptz not null,
  environment_id text not null,
  at timestamptz not null,
  status_code integer not null,
  duration_ms integer not null,
  primary key (delivery_id, created_at)
) partition by range (created_at);

-- where each webhook partition's owner reads the log from: every row below `tx` has a durable
-- outcome (or was rolled back)
create table webhook_positions (
  partition smallint primary key,
  tx xid8 not null
);

-- Daily partitions of both tables from `first` for `days` days (those that exist are kept). A
-- default partition of each catches a row whose day has none (partitions are made a week ahead
-- by `prune_webhooks`, so only a week without it running puts rows there); a day that already
-- has rows in the default partition is skipped rather than failing the rest.
create function webhook_log_partitions(first date, days integer) returns void language plpgsql as $$
declare
  d date;
  t text;
begin
  for i in 0 .. days - 1 loop
    d := first + i;
    foreach t in array array['webhook_log', 'webhook_outcomes'] loop
      begin
        execute format('create table if not exists %I partition of %I for values from (%L) to (%L)',
                       t || '_' || to_char(d, 'YYYYMMDD'), t, d::timestamp at time zone 'UTC', (d + 1)::timestamp at time zone 'UTC');
      exception when check_violation then
        null;
      end;
    end loop;
  end loop;
end
$$;
create table webhook_log_default partition of webhook_log default;
create table webhook_outcomes_default partition of webhook_outcomes default;
select webhook_log_partitions((now() at time zone 'UTC')::date - 1, 9);

-- Every delivery as one relation, for operators' queries (docs/operations.md) and tests: the
-- ledger's rows, and each delivery of the log that has none (`logged`), pending until its outcome
-- says delivered. The API reads both sources itself (libs/webhooks/src/delivery-ledger.ts), on
-- their indexes.
create view webhook_ledger as
  select d.id, d.environment_id, d.endpoint_id, d.event_id, d.event_type, d.channel_id, d.url, d.body, d.status, d.attempts,
         d.last_error, d.last_status_code, d.next_attempt_at, d.locked_until, d.created_at, d.updated_at, d.delivered_at,
         false as logged
  from webhook_deliveries d
  union all
  select l.id, l.environment_id, l.endpoint_id, l.event_id, l.event_type, l.channel_id, l.url, l.body,
         case when o.delivery_id is null then 'pending' else 'delivered' end, case when o.delivery_id is null then 0 else 1 end,
         null, o.status_code, case when o.delivery_id is null then l.created_at end, null::timestamptz, l.created_at,
         coalesce(o.at, l.created_at), o.at,
         true
  from webhook_log l
  left join webhook_outcomes o on o.delivery_id = l.id and o.created_at = l.created_at
  where not exists (select 1 from webhook_deliveries d where d.id = l.id);
