-- One running deletion per channel: a second DELETE /v1/channels/{channelId} while one runs joins
-- it (its request waits on the same erasure) instead of starting a job of its own, whose failure
-- would lift the channel's mark while the other still deletes.
create unique index erasure_jobs_one_channel_deletion on erasure_jobs (environment_id, channel_id)
  where kind = 'channel' and status = 'running';
