/**
 * Who sees a webhook URL whole on the dashboard: members who may manage the environment (admins
 * and owners) read it as stored, as the secret key does; a member with only `read` (a viewer)
 * reads it redacted (redactWebhookUrl in libs/webhooks): a receiver's URL may carry its credential.
 */
import { allows } from '@rtm/accounts';
import { withRedactedUrl } from '@rtm/webhooks';
import type { GatewayDeps } from '../deps.ts';
import { dashboardActor } from '../dashboard/session-auth.ts';

/** The environment a member may read, and `shown`: a row with a URL as this member may see it. */
export async function webhookReader(deps: GatewayDeps, request: Parameters<typeof dashboardActor>[0], envId: string) {
  const access = await deps.dashboard.accounts.access.environmentAccess(dashboardActor(request), envId, 'read');
  const whole = allows(access.role, 'manage');
  const shown = <Row extends { url: string | null }>(row: Row): Row => (whole ? row : withRedactedUrl(row));
  return { environmentId: access.environmentId, shown };
}
