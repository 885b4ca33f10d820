import type { PoolClient } from '@rtm/db';
import { newId } from '@rtm/db';
// the catalogue's own module: @rtm/schemas's index reaches this one through @rtm/auth at start-up
import { OPT_IN_EVENT_TYPES, type WebhookEventType } from '@rtm/schemas/webhook-events';
import { DELIVER_BATCH_TASK } from './jobs.ts';

/** Deliveries per `deliver_webhooks` job: a job sends them 16 at a time. */
const IDS_PER_JOB = 64;

export type { WebhookEventType } from '@rtm/schemas';

export interface WebhookEventInput {
  environmentId: string;
  /** The channel the event is about; null for an event about none (an erasure, an endpoint). */
  channelId: string | null;
  /** message id, `retract_` + message id, or `evt_…` for the other events */
  eventId: string;
  type: WebhookEventType;
  timestamp: number;
  /**
   * The `data` as JSON text (for a message, the envelope's; tombstoned for retractions), spliced
   * into the body as it is: a message's content reaches the endpoint exactly as it was published.
   */
  data: string;
  /** Only to this endpoint (a test event); otherwise to every endpoint whose filters match. */
  only?: string;
  /** Not to this endpoint (an operational event about it). */
  except?: string;
}

/** The opt-in types as a SQL array literal (names of the catalogue: no quoting needed). */
const OPT_IN_SQL = `array[${OPT_IN_EVENT_TYPES.map((type) => `'${type}'`).join(', ')}]::text[]`;

/**
 * Whether an endpoint (alias `ep`) takes an event of type `type` on channel `channel` (SQL
 * expressions): its type filter names the type (null: every type but the opt-in ones, which must
 * be named: OPT_IN_EVENT_TYPES), and its channel patterns match the channel (null: every channel;
 * an event without a channel passes). A pattern is an exact id, `prefix*` or `*`, as in token
 * capabilities.
 */
export const endpointTakesSql = (
  type: string,
  channel: string,
) => `(case when ep.event_types is null then ${type} <> all(${OPT_IN_SQL}) else ${type} = any(ep.event_types) end)
         and (ep.channels is null or ${channel} is null or exists (
               select 1 from unnest(ep.channels) p
               where p = '*' or p = ${channel} or (right(p, 1) = '*' and starts_with(${channel}, left(p, -1)))))`;

/**
 * Whether the environment (SQL expression `environment`) has anywhere to deliver: its default URL
 * or an enabled endpoint. Each `exists` is looked up by its key: `offset 0` keeps Postgres from
 * turning it into a hashed subplan, which reads every hooked environment and every enabled
 * endpoint of every tenant to answer for the few environments of one commit (what a generic plan
 * chose, expecting ten rows from an array parameter).
 */
export const environmentHookedSql = (
  environment: string,
) => `(exists (select 1 from environments e where e.id = ${environment} and e.webhook_url is not null offset 0)
         or exists (select 1 from webhook_endpoints ep where ep.environment_id = ${environment} and not ep.disabled offset 0))`;

/**
 * The endpoints that receive an event (row alias `v`: environment_id, event_type, channel_id,
 * only_endpoint, except_endpoint), as `(endpoint_id, url)`: the default one (the configuration's
 * URL, message events only, as before endpoints existed; `endpoint_id` null) and every enabled
 * endpoint whose filters match.
 */
const RECEIVERS_SQL = `(
         select null::text as endpoint_id, e.webhook_url as url from environments e
         where e.id = v.environment_id and e.webhook_url is not null and v.only_endpoint is null
           and v.event_type in ('message.published', 'message.retracted')
         union all
         select ep.id, ep.url from webhook_endpoints ep
         where ep.environment_id = v.environment_id and not ep.disabled
           and (v.only_endpoint is null or ep.id = v.only_endpoint) and ep.id is distinct from v.except_endpoint
           and (v.only_endpoint is not null or ${endpointTakesSql('v.event_type', 'v.channel_id')}))`;

/**
 * The id of an event's delivery to an endpoint in the delivery log (SQL over `event` and
 * `endpoint`, null for the default one): the event's time prefix (newest-first order, and an
 * event's deliveries found by its id) and the rest drawn from the pair, so the same pair always
 * makes the same id.
 */
export const logDeliveryIdSql = (event: string, endpoint: string) =>
  `'dlv_' || substr(${event}, 5, 10) || substr(md5(${event} || coalesce(${endpoint}, '')), 1, 16)`;

/**
 * The publish's form of `enqueueSql` (docs/webhooks.md, "The delivery log"): one narrow row per
 * event and receiving endpoint appended to `webhook_log` (migration 000019), no ledger row, no
 * job. The CTE `deliveries` returns what the post-commit notice carries (LOGGED_SQL in
 * push-notice.ts reads it): the row, its transaction's id (`tx`, the position the partition's
 * owner reads the log by) and its `created_at` (its day's partition). Same 11 parameters as
 * `enqueueSql`, from `logParameters`; `guard` as there. The statement must read
 * `(select count(*) from delivery_jobs)` (always 0), as for `enqueueSql`.
 */
export function logSql(first: number, guard = 'true'): string {
  const p = (i: number) => `$${first + i}`;
  return `deliveries as (
       insert into webhook_log (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, partition)
       select ${logDeliveryIdSql('v.event_id', 't.endpoint_id')},
              v.environment_id, t.endpoint_id, v.event_id, v.event_type, v.channel_id, t.url, v.body, v.partition
       from unnest(${p(0)}::int[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(8)}::text[], ${p(9)}::text[])
            as v(partition, environment_id, event_id, event_type, channel_id, body, only_endpoint, except_endpoint)
       cross join lateral ${RECEIVERS_SQL} t
       where ${guard}
       returning id, environment_id, endpoint_id, url, event_id, event_type, tx::text as tx, created_at::text as created_at),
     delivery_jobs as (select ${p(6)}::text as task, ${p(7)}::int as per_job, ${p(10)}::int as unused where false)`;
}

/**
 * The 11 parameters of `logSql`, in order (the places of `enqueueParameters`', so a statement can
 * take either): each event's webhook partition (`partitionOf` its environment) where the other
 * has delivery ids; `bodies` as there.
 */
export function logParameters(
  events: readonly WebhookEventInput[],
  partitionOf: (environmentId: string) => number,
  bodies: readonly string[] = events.map(webhookBody),
): unknown[] {
  const [, ...rest] = enqueueParameters(events, 0, bodies);
  return [events.map((event) => partitionOf(event.environmentId)), ...rest];
}

/**
 * The SQL that records webhook deliveries for a batch of events and enqueues the jobs that send
 * them, as two CTEs (`deliveries`, `delivery_jobs`) to put in the caller's statement: they
 * commit (or roll back) with it. Events of environments without an active webhook are skipped
 * (the join reads `environments` in the statement's snapshot). One `add_jobs` call whatever the
 * batch size (every call notifies, and notifying commits serialise on one Postgres lock), with
 * one job per 64 deliveries, and none at all when nothing was recorded.
 *
 * `jobs: false` records the deliveries without any job: the caller then publishes them after
 * commit (the channel-node's notice, push-notice.ts), the dispatcher that takes the notice sends
 * them at once, and a notice that is lost is caught by the dispatchers' catch-up. The statement
 * should then read PUSHED_SQL to learn what the notice carries. With a push lease
 * (`enqueueParameters(events, leaseMs)`), each row is committed leased (`locked_until`) to the
 * owner of its webhook partition: the owner sends it straight from the notice, without a claim,
 * and a record fenced by that lease; nobody else can claim it before the lease ends.
 *
 * `first` is the number of the first of the 11 parameters `enqueueParameters` gives; `guard` is a
 * SQL condition every delivery row must meet (the caller's fence), or `true`. Postgres evaluates
 * a CTE that only selects when the statement reads it: the statement must read
 * `(select count(*) from delivery_jobs)`.
 */
export function enqueueSql(first: number, guard = 'true', jobs = true): string {
  const p = (i: number) => `$${first + i}`;
  // one row per event and receiving endpoint: the default one (the configuration's URL, message
  // events only, as before endpoints existed) and every enabled endpoint whose filters match; an
  // endpoint's delivery id keeps the event's time prefix (newest-first order) and draws the rest
  // from the event and the endpoint (the same pair always makes the same id)
  const deliveries = `deliveries as (
       insert into webhook_deliveries (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, next_attempt_at, locked_until)
       select case when t.endpoint_id is null then v.id else 'dlv_' || substr(v.id, 5, 10) || substr(md5(v.id || t.endpoint_id), 1, 16) end,
              v.environment_id, t.endpoint_id, v.event_id, v.event_type, v.channel_id, t.url, v.body, now(),
              case when ${p(10)}::int > 0 then now() + ${p(10)}::int * interval '1 millisecond' end
       from unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(8)}::text[], ${p(9)}::text[])
            as v(id, environment_id, event_id, event_type, channel_id, body, only_endpoint, except_endpoint)
       cross join lateral ${RECEIVERS_SQL} t
       where ${guard}
       on conflict (environment_id, event_id, (coalesce(endpoint_id, ''))) do nothing
       returning id, environment_id, endpoint_id, url, event_id, event_type, locked_until::text as lease)`;
  // no job: the two job parameters are still typed, so the parameter list stays the same
  if (!jobs)
    return `${deliveries},
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

/**
 * The 11 parameters of `enqueueSql`, in order. `pushLeaseMs`: the rows are committed leased to
 * their partition's owner for that long (the notice's form, `enqueueSql(…, false)`); 0: unleased.
 * `bodies`: each event's `webhookBody`, when the caller made them already (a notice carries them).
 */
export function enqueueParameters(events: readonly WebhookEventInput[], pushLeaseMs = 0, bodies: readonly string[] = events.map(webhookBody)): unknown[] {
  const ids: string[] = [];
  const environments: string[] = [];
  const eventIds: string[] = [];
  const types: string[] = [];
  const channels: (string | null)[] = [];
  const only: (string | null)[] = [];
  const except: (string | null)[] = [];
  for (const event of events) {
    ids.push(newId('dlv'));
    environments.push(event.environmentId);
    eventIds.push(event.eventId);
    types.push(event.type);
    channels.push(event.channelId);
    only.push(event.only ?? null);
    except.push(event.except ?? null);
  }
  return [ids, environments, eventIds, types, channels, bodies, DELIVER_BATCH_TASK, IDS_PER_JOB, only, except, pushLeaseMs];
}

/** The exact bytes every attempt of an event's deliveries sends (the row's `body`). */
export function webhookBody(event: WebhookEventInput): string {
  const head = JSON.stringify({
    id: event.eventId,
    type: event.type,
    timestamp: event.timestamp,
    environmentId: event.environmentId,
    ...(event.channelId !== null && { channelId: event.channelId }),
  });
  return `${head.slice(0, -1)},"data":${event.data}}`;
}

/**
 * Records webhook deliveries for a batch of events and enqueues the jobs that send them, on the
 * caller's transaction, in one statement (see enqueueSql). Returns the ids of the deliveries
 * recorded (one per event and receiving endpoint); `environments`, when given, gets each one's
 * environment (in the same order), for the usage count made once the caller's transaction commits.
 */
export async function recordWebhookEvents(client: PoolClient, events: readonly WebhookEventInput[], environments?: string[]): Promise<string[]> {
  if (events.length === 0) return [];
  const { rows } = await client.query<{ ids: string[]; environments: string[] }>(
    `with ${enqueueSql(1)}
     select array(select id from deliveries) as ids, array(select environment_id from deliveries) as environments,
            (select count(*) from delivery_jobs) as jobs`,
    enqueueParameters(events),
  );
  environments?.push(...rows[0]!.environments);
  return rows[0]!.ids;
}

/** As recordWebhookEvents, answering how many deliveries were recorded. */
export async function enqueueWebhookEvents(client: PoolClient, events: readonly WebhookEventInput[], environments?: string[]): Promise<number> {
  return (await recordWebhookEvents(client, events, environments)).length;
}
