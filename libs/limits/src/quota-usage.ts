/**
 * Reading an environment's monthly quotas and what it used of them this month (GET /v1/quota,
 * the gateway's connection gate): the limits from its active deployment, the counts from
 * `quota_usage` (migration 000023), the month by the database's clock.
 */
import type { Queryable } from '@rtm/db';
import { PERIOD_START_SQL, quotaLimitSql, quotaPeriod } from '@rtm/rules';

export interface QuotaState {
  period: { start: string; resetsAt: string };
  quotas: {
    messages: { limit: number | null; used: number; remaining: number | null };
    connectionMinutes: { limit: number | null; used: number; remaining: number | null };
  };
  /** Connection seconds used this month (the minutes above are its whole minutes). */
  connectionSeconds: number;
}

const READ_SQL = `select ${quotaLimitSql('d.config', 'monthlyMessages')}::text as messages_limit,
              ${quotaLimitSql('d.config', 'monthlyConnectionMinutes')}::text as minutes_limit,
              coalesce(q.messages, 0)::text as messages, coalesce(q.connection_seconds, 0)::text as seconds,
              ${PERIOD_START_SQL}::text as period_start
       from environments e
       left join config_deployments d on d.id = e.active_deployment_id
       left join quota_usage q on q.environment_id = e.id and q.period_start = ${PERIOD_START_SQL}
       where e.id = $1`;

const state = (limit: number | null, used: number) => ({ limit, used, remaining: limit === null ? null : Math.max(0, limit - used) });

/** The environment's quotas this month; null for an unknown environment. */
export async function readQuotaState(db: Queryable, environmentId: string): Promise<QuotaState | null> {
  const { rows } = await db.query<{ messages_limit: string | null; minutes_limit: string | null; messages: string; seconds: string; period_start: string }>(
    READ_SQL,
    [environmentId],
  );
  const row = rows[0];
  if (!row) return null;
  const period = quotaPeriod(Date.parse(`${row.period_start}T00:00:00Z`));
  const seconds = Number(row.seconds);
  const number = (text: string | null) => (text === null ? null : Number(text));
  return {
    period: { start: period.start.toISOString(), resetsAt: period.resetsAt.toISOString() },
    quotas: {
      messages: state(number(row.messages_limit), Number(row.messages)),
      connectionMinutes: state(number(row.minutes_limit), Math.floor(seconds / 60)),
    },
    connectionSeconds: seconds,
  };
}
