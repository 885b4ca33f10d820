import { newId, withTransaction, type Pool } from '@rtm/db';
import { cleanQuotas, effectiveLimits, effectiveQuotas, LIMIT_NAMES, type LimitOverrides, type Limits, type Quotas } from '@rtm/rules';

/**
 * Only known names with whole positive values, and the monthly quotas set (whole numbers from 0;
 * null is unlimited and not stored): what a deployment stores under `limits`.
 */
export function cleanOverrides(overrides: Record<string, unknown> | null | undefined): LimitOverrides {
  const clean: LimitOverrides = { ...cleanQuotas(overrides) };
  for (const name of LIMIT_NAMES) {
    const value = overrides?.[name];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1) clean[name] = value;
  }
  return clean;
}

/** The overrides of the environment's active deployment (none before the first deploy). */
export async function readLimitOverrides(pool: Pool, environmentId: string): Promise<LimitOverrides> {
  const { rows } = await pool.query<{ limits: LimitOverrides | null }>(
    `select d.config->'limits' as limits
     from environments e join config_deployments d on d.id = e.active_deployment_id
     where e.id = $1`,
    [environmentId],
  );
  return cleanOverrides(rows[0]?.limits);
}

/**
 * Deploys the environment's active configuration again with `overrides` as its whole `limits`
 * (what the admin CLI's `set-limits` does; `PUT /v1/config` deploys a whole body instead).
 * Returns null for an unknown environment.
 */
export async function deployLimits(
  pool: Pool,
  environmentId: string,
  overrides: Record<string, unknown>,
): Promise<{ deploymentId: string; limits: Limits & Quotas } | null> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ config: Record<string, unknown> | null }>(
      `select d.config from environments e left join config_deployments d on d.id = e.active_deployment_id
       where e.id = $1 for update of e`,
      [environmentId],
    );
    if (rows.length === 0) return null;
    const config = { webhooks: null, channels: { access: 'open' }, ...rows[0]!.config, limits: cleanOverrides(overrides) };
    const deploymentId = newId('dep');
    await client.query(`insert into config_deployments (id, environment_id, config, activated_at) values ($1, $2, $3, now())`, [
      deploymentId,
      environmentId,
      JSON.stringify(config),
    ]);
    await client.query('update environments set active_deployment_id = $2 where id = $1', [environmentId, deploymentId]);
    return { deploymentId, limits: { ...effectiveLimits(config.limits), ...effectiveQuotas(config.limits) } };
  });
}

/**
 * Each environment's limits in force, cached in the process for `ttlMs`; a deploy announces
 * itself on the bus so every gateway drops that environment's entry at once.
 */
export class EnvironmentLimits {
  private readonly cache = new Map<string, { limits: Promise<Limits>; expires: number }>();
  private readonly pool: Pool;
  private readonly ttlMs: number;

  constructor(pool: Pool, ttlMs: number) {
    this.pool = pool;
    this.ttlMs = ttlMs;
  }

  of(environmentId: string): Promise<Limits> {
    const now = Date.now();
    const hit = this.cache.get(environmentId);
    if (hit && hit.expires > now) return hit.limits;
    const limits = readLimitOverrides(this.pool, environmentId).then(effectiveLimits);
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(environmentId, { limits, expires: now + this.ttlMs });
    // a failed read is not remembered
    limits.catch(() => {
      if (this.cache.get(environmentId)?.limits === limits) this.cache.delete(environmentId);
    });
    return limits;
  }

  /** Forgets one environment's limits (or every environment's, without an id). */
  invalidate(environmentId?: string): void {
    if (environmentId === undefined) this.cache.clear();
    else this.cache.delete(environmentId);
  }
}
