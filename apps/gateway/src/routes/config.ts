import { newId, withTransaction } from '@rtm/db';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { checkWebhookUrl, createWebhookSecret } from '@rtm/webhooks';
import { DeployConfigBody, ConfigDeployment, ErrorBody } from '@rtm/schemas';
import { cleanOverrides, effectiveLimits, encodeInvalidation, type LimitOverrides } from '@rtm/limits';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { recheckEnvironment } from '../kicks/kicks.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** As stored: `limits` holds only the overrides, so later changes of a default reach the environment. */
type Config = { webhooks: { url: string } | null; channels: { access: 'open' | 'members' }; limits?: LimitOverrides };

/** As answered: every limit in force. */
const shown = (config: Config) => ({ webhooks: config.webhooks, channels: config.channels, limits: effectiveLimits(config.limits) });

/** Control plane: `PUT /v1/config` (deploy and activate) and `GET /v1/config` (the active one). */
export async function configRoutes(app: ZodApp, deps: GatewayDeps) {
  app.put(
    '/v1/config',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'deployConfig',
        summary: 'Deploy a configuration',
        description:
          'Validates, stores a deployment and activates it, in one transaction. The body is the whole configuration: ' +
          'an omitted or null `webhooks` disables delivery, omitted `channels` means `{access: "open"}`. The webhook ' +
          'URL is checked before anything is stored (422 `invalid_webhook_url`, the reason names the rule): WHATWG ' +
          'parsing first; `localhost`, `127.0.0.1`, `[::1]` (written so) allowed with http or https only where the ' +
          'operator allows loopback (development; refused by default); every other ' +
          'loopback, private, link-local, unique-local, unspecified, IPv4-embedding IPv6, `.internal` or `.localhost` ' +
          'host refused; other hosts need https; no userinfo. The URL is stored in its WHATWG-normalised form. The ' +
          'first activation with a webhook creates the environment\'s `whsec_` signing secret; later deploys keep it. ' +
          'Deliveries already recorded keep the URL they were created with. A deploy that takes access away (e.g. ' +
          '`channels.access` becomes `members`) closes the live sockets that lost it on every gateway with 4403. ' +
          '`limits` overrides the environment\'s rate limits and socket quotas (docs/limits.md); omitted limits take ' +
          'their defaults, and every gateway applies the new limits at once. The answer shows every limit in force.',
        tags: ['config'],
        security: [{ secretKey: [] }],
        body: DeployConfigBody,
        response: { 200: ConfigDeployment, 422: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      let webhooks: Config['webhooks'] = null;
      if (request.body.webhooks) {
        const verdict = checkWebhookUrl(request.body.webhooks.url, { allowLoopback: deps.config.WEBHOOK_ALLOW_LOOPBACK });
        if (!verdict.ok) throw new ServiceError('invalid_webhook_url', verdict.reason);
        webhooks = { url: verdict.url.href };
      }
      const config: Config = {
        webhooks,
        channels: { access: request.body.channels?.access ?? 'open' },
        limits: cleanOverrides(request.body.limits),
      };
      const deploymentId = newId('dep');
      const activatedAt = await withTransaction(deps.pool, async (client) => {
        const { rows } = await client.query<{ activated_at: Date }>(
          `insert into config_deployments (id, environment_id, config, activated_at) values ($1, $2, $3, now())
           returning activated_at`,
          [deploymentId, environmentId, JSON.stringify(config)],
        );
        await client.query(
          `update environments set active_deployment_id = $2, webhook_url = $3, default_access = $4 where id = $1`,
          [environmentId, deploymentId, config.webhooks?.url ?? null, config.channels.access],
        );
        if (config.webhooks) {
          await createWebhookSecret(client, deps.secretKeyring, environmentId);
        }
        return rows[0]!.activated_at;
      });
      // processes caching environment settings forget them (the gateway's credential cache listens
      // here); this gateway at once, so the deploy's answer means its limits are in force here
      deps.limits.invalidate(environmentId);
      deps.nc.publish(deps.subjects.invalidate, encodeInvalidation(environmentId));
      // the default access may have changed: every gateway closes the sockets that lost access (4403)
      await recheckEnvironment(deps, environmentId);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'config.deployed', {
        deploymentId,
        webhookUrl: config.webhooks?.url ?? null,
        access: config.channels.access,
      });
      return { deploymentId, activatedAt: activatedAt.toISOString(), config: shown(config) };
    },
  );

  app.get(
    '/v1/config',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'getConfig',
        summary: 'The active configuration',
        description: 'Before the first deploy: `deploymentId` and `activatedAt` are null and the defaults are shown.',
        tags: ['config'],
        security: [{ secretKey: [] }],
        response: { 200: ConfigDeployment, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const { rows } = await deps.pool.query<{ id: string; config: Config; activated_at: Date }>(
        `select d.id, d.config, d.activated_at
         from environments e join config_deployments d on d.id = e.active_deployment_id
         where e.id = $1`,
        [environmentId],
      );
      const row = rows[0];
      if (!row) return { deploymentId: null, activatedAt: null, config: shown({ webhooks: null, channels: { access: 'open' } }) };
      return { deploymentId: row.id, activatedAt: row.activated_at.toISOString(), config: shown(row.config) };
    },
  );
}
