-- The auto-disable check (the dispatcher's disable_failing_endpoints task, every
-- WEBHOOK_DISABLE_CHECK_MS) reads enabled endpoints failing since before now() - WEBHOOK_DISABLE_AFTER;
-- only endpoints in a failing streak are in this index, so the check costs nothing while all succeed.
create index webhook_endpoints_failing_idx on webhook_endpoints (failing_since) where failing_since is not null and not disabled;
