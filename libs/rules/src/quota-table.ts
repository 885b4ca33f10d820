/**
 * Monthly quotas of an environment (docs/quotas.md): how many messages it may store and how many
 * connection-minutes its sockets may use in one calendar month (UTC). Unlike the rate limits they
 * have no default: absent or null is unlimited. They live beside the rate limits in the
 * configuration's `limits` and are counted in `quota_usage` (migration 000023).
 */

export const QUOTA_NAMES = ['monthlyMessages', 'monthlyConnectionMinutes'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];
/** A quota in force: a whole number ≥ 0, or null for unlimited. */
export type Quotas = { readonly [K in QuotaName]: number | null };
export type QuotaOverrides = Partial<Record<QuotaName, number | null>>;

/** The largest quota a configuration may set (far above any month, well inside a safe integer). */
export const QUOTA_MAX = 1_000_000_000_000;

/** The thresholds, in percent of a quota, that send a `usage.threshold` event once a month. */
export const QUOTA_THRESHOLDS = [80, 100] as const;
export type QuotaThreshold = (typeof QUOTA_THRESHOLDS)[number];

const isQuota = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= QUOTA_MAX;

/** Only the quotas set, as stored (whole numbers from 0; anything else, or null, is unlimited). */
export function cleanQuotas(overrides: Record<string, unknown> | null | undefined): Partial<Record<QuotaName, number>> {
  const clean: Partial<Record<QuotaName, number>> = {};
  for (const name of QUOTA_NAMES) {
    const value = overrides?.[name];
    if (isQuota(value)) clean[name] = value;
  }
  return clean;
}

/** The quotas in force: those set, the others null (unlimited). */
export function effectiveQuotas(overrides: Record<string, unknown> | null | undefined): Quotas {
  const clean = cleanQuotas(overrides);
  return Object.freeze({ monthlyMessages: clean.monthlyMessages ?? null, monthlyConnectionMinutes: clean.monthlyConnectionMinutes ?? null });
}

/** The month `at` falls in (UTC): its first instant and the first instant of the next. */
export function quotaPeriod(at: number | Date = Date.now()): { start: Date; resetsAt: Date } {
  const date = new Date(at);
  const start = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const resetsAt = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
  return { start, resetsAt };
}

/** `period_start` of the month `at` falls in, as Postgres' date text (YYYY-MM-DD). */
export const periodStartText = (at: number | Date = Date.now()): string => quotaPeriod(at).start.toISOString().slice(0, 10);

/** The current month's `period_start` by the database's clock (every process agrees on it). */
export const PERIOD_START_SQL = `(date_trunc('month', now() at time zone 'UTC'))::date`;

/**
 * A quota in force as SQL: the number under `limits.<name>` of `config` (a jsonb expression, a
 * deployment's config, null before the first deploy), else null (unlimited).
 */
export function quotaLimitSql(config: string, name: QuotaName): string {
  const value = `${config} -> 'limits' -> '${name}'`;
  return `(case when jsonb_typeof(${value}) = 'number' then (${value})::text::numeric::bigint end)`;
}

/** The thresholds `used` has reached of `limit`, in order (none for an unlimited quota). */
export function thresholdsReached(used: number, limit: number | null): QuotaThreshold[] {
  if (limit === null) return [];
  // 80 % of a limit of 3 is 2.4: reached at 3 used (the first whole message past it)
  return QUOTA_THRESHOLDS.filter((t) => used * 100 >= t * limit);
}

/** What a refusal for a spent quota names (the envelope's `quota`). */
export interface QuotaRefusal {
  quota: QuotaName;
  limit: number;
  used: number;
  /** ISO 8601: the first instant of the next month (UTC), when the quota starts again from 0. */
  resetsAt: string;
}

/** The human `reason` of a quota refusal, naming the quota, its limit, what was used and when it resets. */
export function quotaReasonText(refusal: QuotaRefusal): string {
  const unit = refusal.quota === 'monthlyMessages' ? 'messages' : 'connection-minutes';
  return `monthly quota ${refusal.quota} reached: ${refusal.used} of ${refusal.limit} ${unit} used this month; it resets at ${refusal.resetsAt}`;
}
