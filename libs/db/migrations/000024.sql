-- Reading usage (docs/stats.md): the dispatcher's `usage_rollup` job rolls minutes into hours,
-- hours into days and days into months, and `prune_usage` deletes what outlived its retention.
-- Both select rows by time across every environment, which the primary keys (environment first)
-- cannot serve: one index on `at` per table.
create index usage_minutes_at_idx on usage_minutes (at);
create index usage_hours_at_idx on usage_hours (at);
create index usage_days_at_idx on usage_days (at);
create index usage_months_at_idx on usage_months (at);

-- How far the rollup has settled, in one row: every minute before `settled_before` is in its hour,
-- day and month (a minute flushed later than the rollup's settling margin is added by the next
-- run, which re-rolls the previous hour too). The stats reads take the rolled tables for the
-- intervals before it and compute the newer ones from the finer tables. Null until the first run.
-- The run locks this row, so two runs never interleave.
create table usage_rollup_state (
  singleton boolean primary key default true check (singleton),
  settled_before timestamptz
);
insert into usage_rollup_state default values;
