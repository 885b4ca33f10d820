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
  /**
   * The message envelope's JSON text (tombstoned for retractions), spliced into the body as it
   * is: the content's bytes reach the endpoint exactly as they were published.
   */
  data: string;
}

/**
 * The SQL that records webhook deliveries for a batch of events and enqueues the jobs that send
 * them, as two CTEs (`deliveries`, `delivery_jobs`) to put in the caller's statement: they
 * commit (or roll back) with it. Events of environments without an active webhook are skipped
 * (the join reads `environments` in the statement's snapshot). One `add_jobs` call whatever the
 * batch size (every call notifies, and notifying commits serialise on one Postgres lock), with
 * one job per 64 deliveries, and none at all when nothing was recorded.
 *
 * `jobs: false` records the deliveries without any job: the caller then publishes their ids
 * after commit (the channel-node's notice, docs/webhooks.md), the dispatcher that takes the
 * notice sends them at once, and a notice that is lost is caught by the dispatchers' reconciler.
 * The statement should then read `array(select id from deliveries)` (and `environment_id`, the
 * notice's address) to learn the ids.
 *
 * `first` is the number of the first of the 8 parameters `enqueueParameters` gives; `guard` is a
 * SQL condition every delivery row must meet (the caller's fence), or `true`. Postgres evaluates
 * a CTE that only selects when the statement reads it: the statement must read
 * `(select count(*) from delivery_jobs)`.
 */
export function enqueueSql(first: number, guard = 'true', jobs = true): string {
  const p = (i: number) => `$${first + i}`;
  const deliveries = `deliveries as (
       insert into webhook_deliveries (id, environment_id, event_id, event_type, channel_id, url, body, next_attempt_at)
       select v.id, v.environment_id, v.event_id, v.event_type, v.channel_id, e.webhook_url, v.body, now()
       from unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[])
            as v(id, environment_id, event_id, event_type, channel_id, body)
       join environments e on e.id = v.environment_id and e.webhook_url is not null
       where ${guard}
       on conflict (environment_id, event_id) do nothing
       returning id, environment_id)`;
  // no job: the two job parameters are still typed, so the parameter list stays the same
  if (!jobs) return `${deliveries},
     delivery_jobs as (select ${p(6)}::text as task, ${p(7)}::int as per_job where false)`;
  return `${deliveries},
     delivery_jobs as (
       select graphile_worker.add_jobs(array(
         select json_populate_record(null::graphile_worker.job_spec,
                  json_build_object('identifier', ${p(6)}::text, 'payload', json_build_object('ids', ids)))
         from (select array_agg(id) as ids
               from (select id, row_number() over () as i from deliveries) as numbered
               group by (i - 1) / ${p(7)}) as jobs))
       where exists (select 1 from deliveries))`;
}

/** The 8 parameters of `enqueueSql`, in order. */
export function enqueueParameters(events: readonly WebhookEventInput[]): unknown[] {
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
    const head = JSON.stringify({
      id: event.eventId,
      type: event.type,
      timestamp: event.timestamp,
      environmentId: event.environmentId,
      channelId: event.channelId,
    });
    bodies.push(`${head.slice(0, -1)},"data":${event.data}}`);
  }
  return [ids, environments, eventIds, types, channels, bodies, DELIVER_BATCH_TASK, IDS_PER_JOB];
}

/**
 * Records webhook deliveries for a batch of events and enqueues the jobs that send them, on the
 * caller's transaction, in one statement (see enqueueSql). Returns how many deliveries were
 * recorded.
 */
export async function enqueueWebhookEvents(client: PoolClient, events: readonly WebhookEventInput[]): Promise<number> {
  if (events.length === 0) return 0;
  const { rows } = await client.query<{ recorded: number }>(
    `with ${enqueueSql(1)}
     select (select count(*)::int from deliveries) as recorded, (select count(*) from delivery_jobs) as jobs`,
    enqueueParameters(events),
  );
  return rows[0]!.recorded;
}
