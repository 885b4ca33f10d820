import type { PoolClient } from '@rtm/db';
import { newId } from '@rtm/db';
import { DELIVER_BATCH_TASK } from './jobs.ts';

/** Deliveries per `deliver_webhooks` job: a job sends them 16 at a time. */
const IDS_PER_JOB = 64;

export type WebhookEventType = 'message.published' | 'message.retracted';

export interface WebhookEventInput {
  environmentId: string;
  channelId: string;
  /** message id, or `retract_` + message id */
  eventId: string;
  type: WebhookEventType;
  timestamp: number;
  /** The message envelope (tombstoned for retractions). */
  data: Record<string, unknown>;
}

/**
 * Records webhook deliveries for a batch of events and enqueues the job that sends them, on the
 * caller's transaction: commit makes both visible, rollback leaves neither. Events of
 * environments without an active webhook are skipped. One `add_jobs` call per batch,
 * whatever the batch size (every call notifies, and notifying commits serialise on one Postgres lock),
 * with one job per 64 deliveries. Returns how many deliveries were recorded.
 */
export async function enqueueWebhookEvents(client: PoolClient, events: readonly WebhookEventInput[]): Promise<number> {
  if (events.length === 0) return 0;
  const ids: string[] = [];
  const environments: string[] = [];
  const eventIds: string[] = [];
  const types: string[] = [];
  const channels: string[] = [];
  const bodies: string[] = [];
  for (const event of events) {
    ids.push(newId('dlv'));
    environments.push(event.environmentId);
    eventIds.push(event.eventId);
    types.push(event.type);
    channels.push(event.channelId);
    bodies.push(
      JSON.stringify({
        id: event.eventId,
        type: event.type,
        timestamp: event.timestamp,
        environmentId: event.environmentId,
        channelId: event.channelId,
        data: event.data,
      }),
    );
  }
  const { rows } = await client.query<{ id: string }>(
    `insert into webhook_deliveries (id, environment_id, event_id, event_type, channel_id, url, body, next_attempt_at)
     select v.id, v.environment_id, v.event_id, v.event_type, v.channel_id, e.webhook_url, v.body, now()
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
          as v(id, environment_id, event_id, event_type, channel_id, body)
     join environments e on e.id = v.environment_id and e.webhook_url is not null
     on conflict (environment_id, event_id) do nothing
     returning id`,
    [ids, environments, eventIds, types, channels, bodies],
  );
  if (rows.length === 0) return 0;
  // one add_jobs call (one notify) whatever the size; a commit that merged many batches still
  // spreads its deliveries over several jobs, so several workers send them side by side
  await client.query(
    `select graphile_worker.add_jobs(array(
       select json_populate_record(null::graphile_worker.job_spec,
                json_build_object('identifier', $1::text, 'payload', json_build_object('ids', ids)))
       from (select array_agg(id order by i) as ids
             from unnest($2::text[]) with ordinality as u(id, i)
             group by (i - 1) / $3) as jobs))`,
    [DELIVER_BATCH_TASK, rows.map((row) => row.id), IDS_PER_JOB],
  );
  return rows.length;
}
