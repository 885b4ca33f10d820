/**
 * What `PUT /v1/config` and `PATCH /v1/config` deploy: the request's configuration as stored. A
 * PATCH is merged into the active configuration first (RFC 7396, `merge-patch.ts`) and the result
 * is validated as the body of a PUT would be, so both refuse the same configurations.
 */
import { DeployConfigBody, type PatchConfigBody } from '@rtm/schemas';
import { cleanOverrides } from '@rtm/limits';
import { ServiceError } from '@rtm/errors';
import type { z } from 'zod';
import type { GatewayDeps } from '../deps.ts';
import { checkedWebhookUrl, type Config } from './deploy.ts';
import { mergePatch } from './merge-patch.ts';

type DeployBody = z.infer<typeof DeployConfigBody>;

/** The configuration a PUT body deploys (its webhook URL checked: 422 `invalid_webhook_url`). */
export function configOfBody(deps: Pick<GatewayDeps, 'config'>, body: DeployBody): Config {
  return {
    webhooks: body.webhooks ? { url: checkedWebhookUrl(deps, body.webhooks.url, 'invalid_webhook_url') } : null,
    // presence settings stored only when given: a later change of their default reaches the environment
    channels: { access: body.channels?.access ?? 'open', ...presenceSettings(body.channels) },
    limits: cleanOverrides(body.limits),
    namespaces: body.namespaces ?? [],
  };
}

/** The configuration `patch` makes of the active one (null: before the first deploy), validated as a PUT of it. */
export function patchedConfig(deps: Pick<GatewayDeps, 'config'>, active: Config | null, patch: z.infer<typeof PatchConfigBody>): Config {
  // a stored configuration has the shape of a PUT body (read from jsonb: nothing undefined in it)
  const merged = mergePatch(active ?? {}, patch);
  const parsed = DeployConfigBody.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw new ServiceError('invalid_request', `body${path} (after the merge): ${issue?.message ?? 'invalid'}`);
  }
  return configOfBody(deps, parsed.data);
}

/** The presence settings a deploy gave (absent ones take the defaults when read). */
function presenceSettings(channels: { presence?: boolean; joinLeave?: boolean } | undefined) {
  const settings: { presence?: boolean; joinLeave?: boolean } = {};
  if (channels?.presence !== undefined) settings.presence = channels.presence;
  if (channels?.joinLeave !== undefined) settings.joinLeave = channels.joinLeave;
  return settings;
}
