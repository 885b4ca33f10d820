/**
 * Logs access follows dashboard membership. A logs token minted with a dashboard session names
 * its member as subject (`dashboard:<userId>`). When the member is removed from the organization
 * (or leaves), or moved to a lower role, every logs token they minted for the organization's
 * environments is revoked: a cutoff on that subject in each environment (revocations, as
 * `DELETE /v1/users/{id}/tokens` writes them), applied here and published on
 * `subjects.revocations`, so every gateway refuses the tokens and closes their logs sockets with
 * 4401 `token revoked` (revoke.ts). The logs socket also checks, when it opens, that the member
 * still holds LOGS_RIGHT in the environment's organization (4403 otherwise).
 *
 * A logs token minted with a dashboard session also lives no longer than that session: it is
 * recorded with the session (SessionLogsTokens), and when the session ends (sign-out, a new
 * sign-in in the same browser, idle or absolute expiry, every session of the user ended) the
 * token is revoked by its jti on every gateway, which closes its logs sockets with 4401
 * `token revoked`; a socket opened with it after its session ended is refused the same way.
 */
import { environmentIdsOfOrganization } from '@rtm/accounts';
import type { GatewayDeps } from '../deps.ts';
import { publishRevocation, type PublishRevocationDeps } from './revoke.ts';

const PREFIX = 'dashboard:';

/** The subject of a logs token minted by a dashboard member. */
export function logsSubjectOf(userId: string): string {
  return `${PREFIX}${userId}`;
}

/** The dashboard user of a logs token's subject, or null for one minted with a secret key. */
export function dashboardUserOf(subject: string): string | null {
  return subject.startsWith(PREFIX) ? subject.slice(PREFIX.length) : null;
}

/** Revokes the member's logs tokens in every environment of the organization, on every gateway. */
export async function revokeLogsTokens(
  deps: Pick<GatewayDeps, 'pool' | 'revocations'> & PublishRevocationDeps,
  organizationId: string,
  userId: string,
): Promise<void> {
  for (const id of await environmentIdsOfOrganization(deps.pool, organizationId)) {
    await publishRevocation(deps, await deps.revocations.revokeUser(id, logsSubjectOf(userId)));
  }
}

/** Revokes, on every gateway, the logs tokens minted with dashboard sessions that are over. */
export async function revokeLogsTokensOfEndedSessions(deps: Pick<GatewayDeps, 'dashboard' | 'revocations'> & PublishRevocationDeps): Promise<void> {
  const ended = await deps.dashboard.sessionLogs.ofEndedSessions();
  for (const token of ended) {
    await publishRevocation(deps, await deps.revocations.revokeToken(token.environmentId, token.jti));
  }
  await deps.dashboard.sessionLogs.forget(ended.map((token) => token.jti));
}
