/**
 * The monthly message quota in a commit (docs/quotas.md): the statement that stores a batch's
 * messages also adds them to each environment's count of the month (`quota_usage`, one row per
 * environment and month, one upsert per environment of the commit), reads the environment's
 * `limits.monthlyMessages` from its active deployment, and fails the whole statement with
 * QUOTA_STATE when a count would pass its limit: nothing past a limit is ever committed. The
 * committer then reads what is left (QUOTA_LEFT_SQL) and plans the batch again with the
 * messages past the limit refused (quota-allowance.ts).
 *
 * The upsert's row lock is held until the commit ends, so the commits of one environment take
 * turns on its row; that turn is the price of exactness (measured in docs/benchmarks.md).
 */
import { PERIOD_START_SQL, quotaLimitSql } from '@rtm/rules';

/** SQLSTATE raised by `rtm_check` when a commit would pass a monthly message quota. */
export const QUOTA_STATE = 'RTM03';

/**
 * Two CTEs, `quota` (the upsert: `environments`/`counts` are SQL text[] and bigint[] parameters,
 * each row added only when `guard` holds) and `quota_limits` (each counted environment's new count
 * and limit, null when unlimited). Unlimited environments are counted too: the month's count is
 * right when a quota is set later, and GET /v1/quota reports it.
 */
export function quotaCtes(environments: string, counts: string, guard: string): string {
  return `quota as (
       insert into quota_usage as q (environment_id, period_start, messages)
       select v.environment_id, ${PERIOD_START_SQL}, v.n
       from unnest(${environments}::text[], ${counts}::bigint[]) as v(environment_id, n)
       where ${guard}
       on conflict (environment_id, period_start) do update set messages = q.messages + excluded.messages
       returning q.environment_id, q.messages),
     quota_limits as (
       -- each environment looked up by its key (as LOAD_CHANNELS_SQL does)
       select q.environment_id, q.messages, ${quotaLimitSql('d.config', 'monthlyMessages')} as lim
       from quota q
       cross join lateral (select * from environments e where e.id = q.environment_id offset 0) e
       left join lateral (select * from config_deployments d where d.id = e.active_deployment_id offset 0) d on true)`;
}

/**
 * The select-list entries over `quota_limits`: the check, and each limited environment's count
 * after this commit as `[environmentId, used, limit]` (the threshold events' input).
 */
export const QUOTA_ANSWER_SQL = `rtm_check(not exists (select 1 from quota_limits q where q.messages > q.lim), '${QUOTA_STATE}',
                      'a monthly message quota would be exceeded') as within_quota,
            coalesce((select json_agg(json_build_array(q.environment_id, q.messages, q.lim)) from quota_limits q where q.lim is not null),
                     '[]'::json) as quotas`;

/** An edit's count, after the batch's changes ($1 environments, $2 counts): the same upsert and check on its own. */
export const QUOTA_ADD_SQL = `with ${quotaCtes('$1', '$2', 'true')}
     select ${QUOTA_ANSWER_SQL}`;

/**
 * What each environment ($1) may still store this month: its limit (null: unlimited), what it
 * used, and the month's first day (text, by the database's clock).
 */
export const QUOTA_LEFT_SQL = `select e.id as environment_id, ${quotaLimitSql('d.config', 'monthlyMessages')} as lim,
              coalesce(q.messages, 0) as used, ${PERIOD_START_SQL}::text as period_start
       from unnest($1::text[]) as v(id)
       join environments e on e.id = v.id
       left join config_deployments d on d.id = e.active_deployment_id
       left join quota_usage q on q.environment_id = e.id and q.period_start = ${PERIOD_START_SQL}`;

/** `[environmentId, used, limit]` of each limited environment a commit counted. */
export type QuotaCounts = [string, number, number][];
