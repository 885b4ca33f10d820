-- Who holds each partition (PartitionOwnership with `holders`), written on the lock connection
-- when it takes the partition and deleted when it gives it back in good order. A new holder that
-- finds a row of a session that no longer exists knows its predecessor died (kill -9, lost
-- machine) rather than handed over: whatever the dead one had leased can be taken at once
-- instead of after the leases run out. `kind` is the lock connection's application name.
create table partition_holders (
  kind text not null,
  partition integer not null,
  backend_pid integer not null,
  backend_start timestamptz not null,
  primary key (kind, partition)
);
