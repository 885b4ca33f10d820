/**
 * Token revocation across the cluster: the gateway that revokes writes it (Postgres), applies it
 * here and publishes it on `subjects.revocations`; every gateway applies it to its cache and
 * closes the sockets of the tokens it refuses (4401). The answer is sent after the publish is
 * flushed, so a client told "revoked" finds the token refused on every gateway moments later.
 */
import { encodeRevocation, type Revocation, type TokenRevocations } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import type { Logger } from '@rtm/ops';
import type { GatewayDeps } from '../deps.ts';
import type { TokenSockets } from '@rtm/edge';

/** What applying a revocation here touches: the revocation cache and the sockets of the tokens it refuses. */
export interface RevocationDeps {
  revocations: Pick<TokenRevocations, 'apply'>;
  sessions: { tokens: Pick<TokenSockets, 'close'> };
  log: Pick<Logger, 'info'>;
}

export function applyRevocation(deps: RevocationDeps, revocation: Revocation): void {
  deps.revocations.apply(revocation);
  const closed = deps.sessions.tokens.close(revocation);
  if (closed > 0) deps.log.info({ environmentId: revocation.environmentId, closed }, 'sockets of revoked tokens closed');
}

/** Publishing a revocation: applied here, then to every gateway over the bus, and logged. */
export type PublishRevocationDeps = RevocationDeps & Pick<GatewayDeps, 'nc' | 'subjects'>;

export async function publishRevocation(deps: PublishRevocationDeps, revocation: Revocation): Promise<void> {
  applyRevocation(deps, revocation);
  deps.nc.publish(deps.subjects.revocations, encodeRevocation(revocation));
  await deps.nc.flush();
  const logged = 'jti' in revocation ? { jti: revocation.jti } : 'userId' in revocation ? { userId: revocation.userId } : { keyIds: revocation.keyIds };
  publishLog(deps.nc, deps.subjects, revocation.environmentId, 'info', 'token.revoked', logged);
}

/** Keys that no longer verify (a rotation without grace, a removed tenant key or JWKS): their sockets close (4401). */
export async function closeSocketsOfKeys(deps: PublishRevocationDeps, environmentId: string, keyIds: string[]): Promise<void> {
  if (keyIds.length === 0) return;
  await publishRevocation(deps, { environmentId, keyIds, expiresAtMs: Date.now() });
}
