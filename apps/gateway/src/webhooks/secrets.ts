/**
 * Signing secrets as both hosts reveal and rotate them (routes/webhooks.ts and
 * routes/webhook-endpoints.ts with the secret key, routes/dashboard/ for a session): each reveal
 * and rotation writes an audit entry naming who did it (the member, or the secret key by its id),
 * never the secret; a rotation's entry is in the rotation's transaction, a reveal's after the
 * secret is read and before it is shown. Also the audit entry of any endpoint change (its URL
 * redacted: viewers read the audit log).
 */
import { recordEnvironmentAudit, type Actor } from '@rtm/accounts';
import { publishLog } from '@rtm/bus';
import type { Pool, PoolClient } from '@rtm/db';
import { keyAuth } from '@rtm/edge';
import { ServiceError } from '@rtm/errors';
import { getEndpoint, readEndpointSecret, readWebhookSecret, redactWebhookUrl, rotateEndpointSecret, rotateWebhookSecret } from '@rtm/webhooks';
import type { GatewayDeps } from '../deps.ts';

/** The audit log's actor of a secret-key request: the key, by its id. */
export const keyActor = (request: Parameters<typeof keyAuth>[0]): Actor => ({ kind: 'key', keyId: keyAuth(request).keyId });

type SecretDeps = Pick<GatewayDeps, 'nc' | 'pool' | 'secretKeyring' | 'subjects'>;

/** The audit entry `webhook_endpoint.<action>` about one endpoint of an environment (never its secret). */
export function endpointAudit(actor: Actor, environmentId: string, action: string, details: Record<string, unknown> = {}) {
  return (client: Pool | PoolClient, endpoint: { id: string; url: string }) =>
    recordEnvironmentAudit(client, actor, environmentId, {
      action: `webhook_endpoint.${action}`,
      targetType: 'webhook_endpoint',
      targetId: endpoint.id,
      details: { environmentId, url: redactWebhookUrl(endpoint.url), ...details },
    });
}

/** The endpoint's signing secret, its reveal audited; 404 for an unknown endpoint. */
export async function revealEndpointSecret(deps: SecretDeps, actor: Actor, environmentId: string, endpointId: string): Promise<{ secret: string }> {
  const secret = await readEndpointSecret(deps.pool, deps.secretKeyring, environmentId, endpointId);
  const endpoint = await getEndpoint(deps.pool, environmentId, endpointId);
  await endpointAudit(actor, environmentId, 'secret_revealed')(deps.pool, endpoint);
  return { secret };
}

/** A new signing secret for the endpoint, audited in the rotation's transaction and on the live log. */
export async function rotateEndpointSecretAudited(deps: SecretDeps, actor: Actor, environmentId: string, endpointId: string): Promise<{ secret: string }> {
  const secret = await rotateEndpointSecret(deps.pool, deps.secretKeyring, environmentId, endpointId, endpointAudit(actor, environmentId, 'secret_rotated'));
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'webhook.secret_rotated', { endpointId });
  return { secret };
}

const environmentSecretAudit = (actor: Actor, environmentId: string, action: 'secret_revealed' | 'secret_rotated') => (client: Pool | PoolClient) =>
  recordEnvironmentAudit(client, actor, environmentId, { action: `webhook.${action}`, targetType: 'environment', targetId: environmentId });

/** The environment's (default endpoint's) signing secret, its reveal audited; 404 `webhooks_not_configured` without one. */
export async function revealWebhookSecret(deps: SecretDeps, actor: Actor, environmentId: string): Promise<{ secret: string }> {
  const secret = await readWebhookSecret(deps.pool, deps.secretKeyring, environmentId);
  if (secret === null) throw new ServiceError('webhooks_not_configured');
  await environmentSecretAudit(actor, environmentId, 'secret_revealed')(deps.pool);
  return { secret };
}

/** A new signing secret for the environment, audited and on the live log; 404 `webhooks_not_configured` without one. */
export async function rotateWebhookSecretAudited(deps: SecretDeps, actor: Actor, environmentId: string): Promise<{ secret: string }> {
  const secret = await rotateWebhookSecret(deps.pool, deps.secretKeyring, environmentId);
  if (secret === null) throw new ServiceError('webhooks_not_configured');
  // the rotation commits in its own transaction (libs/webhooks' secret store)
  await environmentSecretAudit(actor, environmentId, 'secret_rotated')(deps.pool);
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'webhook.secret_rotated', {});
  return { secret };
}
