/**
 * Token revocation across the cluster: the gateway that revokes writes it (Postgres), applies it
 * here and publishes it on `subjects.revocations`; every gateway applies it to its cache and
 * closes the sockets of the tokens it refuses (4401). The answer is sent after the publish is
 * flushed, so a client told "revoked" finds the token refused on every gateway moments later.
 */
import { encodeRevocation, type Revocation } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import type { GatewayDeps } from '../deps.ts';
import { sessionsOf } from '../sessions/sessions.ts';

export function applyRevocation(deps: GatewayDeps, revocation: Revocation): void {
  deps.revocations.apply(revocation);
  const closed = sessionsOf(deps).tokens.close(revocation);
  if (closed > 0) deps.log.info({ environmentId: revocation.environmentId, closed }, 'sockets of revoked tokens closed');
}

export async function publishRevocation(deps: GatewayDeps, revocation: Revocation): Promise<void> {
  applyRevocation(deps, revocation);
  deps.nc.publish(deps.subjects.revocations, encodeRevocation(revocation));
  await deps.nc.flush();
  publishLog(deps.nc, deps.subjects, revocation.environmentId, 'info', 'token.revoked', 'jti' in revocation ? { jti: revocation.jti } : { userId: revocation.userId });
}
