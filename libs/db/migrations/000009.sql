-- Fences for two background writers that could outlive their right to write.
--
-- erasure_jobs.lease_token: a fresh token each time a gateway claims a job. A retraction made for
-- the job counts in `retracted` (and happens at all) only in a transaction that finds the token
-- still there, and the batch's progress is written only by the token's holder, so a runner whose
-- lease was taken over changes nothing and nothing is counted twice.
alter table erasure_jobs add column lease_token text;

-- channels.deleting_until: set while a channel's deletion runs (renewed as it goes, so a crashed
-- deletion lets go by itself). The channel owner's seq fence refuses to advance a channel that is
-- being deleted, so no message can commit between the deletion's first and last step.
alter table channels add column deleting_until timestamptz;
