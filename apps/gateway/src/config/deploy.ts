/**
 * Deploying an environment's configuration: the one path behind `PUT /v1/config` and the
 * dashboard's webhook deploy. Stores a deployment and activates it in one transaction (creating
 * the webhook signing secret at the first activation with a webhook), then makes every gateway
 * apply it at once.
 */
import {
  activateDeployment,
  insertDeployment,
  lockActiveDeployment,
  lockDeploys,
  lockWebhooksOff,
  newId,
  readActiveDeployment,
  withTransaction,
  type PoolClient,
} from '@rtm/db';
import { publishLog } from '@rtm/bus';
import { ServiceError, type ErrorCode } from '@rtm/errors';
import { createWebhookSecret, redactWebhookUrl, requeueWaitingDeliveries } from '@rtm/webhooks';
import { checkWebhookUrl, effectiveLimits, effectiveQuotas, JOIN_LEAVE_DEFAULT, PRESENCE_DEFAULT, type LimitOverrides, type Namespace } from '@rtm/rules';
import { encodeInvalidation } from '@rtm/limits';
import type { GatewayDeps } from '../deps.ts';
import { recheckEnvironment } from '@rtm/edge';

/** As stored: `limits` holds only the overrides, so later changes of a default reach the environment. */
export type Config = {
  webhooks: { url: string } | null;
  /** `presence` and `joinLeave` absent in deployments made before they existed (their defaults). */
  channels: { access: 'open' | 'members'; presence?: boolean; joinLeave?: boolean };
  limits?: LimitOverrides;
  /** Channel namespaces (docs/permissions.md); absent in deployments made before they existed. */
  namespaces?: Namespace[];
};

/** As answered: every limit in force. */
export const shownConfig = (config: Config) => ({
  webhooks: config.webhooks,
  channels: {
    access: config.channels.access,
    presence: config.channels.presence ?? PRESENCE_DEFAULT,
    joinLeave: config.channels.joinLeave ?? JOIN_LEAVE_DEFAULT,
  },
  limits: { ...effectiveLimits(config.limits), ...effectiveQuotas(config.limits) },
  namespaces: config.namespaces ?? [],
});

/** The URL in its stored (WHATWG-normalised) form; refused with `code` and the validator's reason. */
export function checkedWebhookUrl(deps: Pick<GatewayDeps, 'config'>, url: string, code: ErrorCode): string {
  const verdict = checkWebhookUrl(url, { allowLoopback: deps.config.WEBHOOK_ALLOW_LOOPBACK });
  if (!verdict.ok) throw new ServiceError(code, verdict.reason);
  return verdict.url.href;
}

/** The active deployment, or null before the first deploy. */
export function activeConfig(deps: Pick<GatewayDeps, 'pool'>, environmentId: string): Promise<{ id: string; config: Config; activatedAt: Date } | null> {
  return readActiveDeployment<Config>(deps.pool, environmentId);
}

/**
 * Stores and activates a configuration (already validated), or the one `change` makes of the
 * active configuration (null before the first deploy; what it throws refuses the deploy). Every
 * deploy takes the environment's row lock before anything else, so deploys of one environment
 * take turns (without deadlocks) and a `change` reads what the previous deploy activated: none is
 * lost. `audit` runs inside the transaction.
 */
export async function deployConfig(
  deps: Pick<GatewayDeps, 'limits' | 'nc' | 'pool' | 'secretKeyring' | 'subjects'>,
  environmentId: string,
  change: Config | ((active: Config | null) => Config),
  audit: (client: PoolClient, deploymentId: string) => Promise<void> = async () => {},
) {
  const deploymentId = newId('dep');
  let config!: Config;
  const activatedAt = await withTransaction(deps.pool, async (client) => {
    // every deploy takes its turn first (lockDeploys); only a change reads what it changes
    if (typeof change === 'function') config = change(await lockActiveDeployment<Config>(client, environmentId));
    else {
      await lockDeploys(client, environmentId);
      config = change;
    }
    const activated = await insertDeployment(client, deploymentId, environmentId, config);
    // webhooks off until now: the default endpoint's pending deliveries waited (no send without a
    // URL, docs/webhooks.md); with a URL again they are due at once
    const webhooksWereOff = await lockWebhooksOff(client, environmentId);
    await activateDeployment(client, environmentId, deploymentId, {
      webhookUrl: config.webhooks?.url ?? null,
      defaultAccess: config.channels.access,
    });
    if (config.webhooks) {
      await createWebhookSecret(client, deps.secretKeyring, environmentId);
      if (webhooksWereOff) await requeueWaitingDeliveries(client, environmentId, null);
    }
    await audit(client, deploymentId);
    return activated;
  });
  // processes caching environment settings forget them (the gateway's credential cache listens
  // here); this gateway at once, so the deploy's answer means its limits are in force here
  deps.limits.invalidate(environmentId);
  deps.nc.publish(deps.subjects.invalidate, encodeInvalidation(environmentId));
  // the default access may have changed: every gateway closes the sockets that lost access (4403)
  await recheckEnvironment(deps, environmentId);
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'config.deployed', {
    deploymentId,
    webhookUrl: config.webhooks ? redactWebhookUrl(config.webhooks.url) : null,
    access: config.channels.access,
  });
  return { deploymentId, activatedAt: activatedAt.toISOString(), config: shownConfig(config) };
}
