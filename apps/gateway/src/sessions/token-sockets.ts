import { refuses, type Revocation, type UserClaims } from '@rtm/auth';
import { SOCKET_CLOSE } from '../sockets/close-codes.ts';
import type { SocketLink } from './socket-link.ts';

/**
 * The token each open socket of this gateway was authenticated with, by environment, so a
 * revocation (one token, or every token of a user issued before a moment) closes exactly the
 * sockets it refuses, with 4401. A multiplexed connection that re-authenticates is watched under
 * its newest token.
 */
export class TokenSockets {
  private readonly byEnvironment = new Map<string, Map<SocketLink, UserClaims>>();

  watch(link: SocketLink, claims: UserClaims): void {
    let links = this.byEnvironment.get(claims.environmentId);
    if (!links) this.byEnvironment.set(claims.environmentId, (links = new Map()));
    const known = links.has(link);
    links.set(link, claims);
    if (known) return;
    link.onClosed(() => {
      const current = this.byEnvironment.get(claims.environmentId);
      current?.delete(link);
      if (current?.size === 0) this.byEnvironment.delete(claims.environmentId);
    });
  }

  /** Closes (4401) this gateway's sockets whose token the revocation refuses; returns how many. */
  close(revocation: Revocation): number {
    const links = this.byEnvironment.get(revocation.environmentId);
    if (!links) return 0;
    let closed = 0;
    for (const [link, claims] of [...links]) {
      if (!refuses(revocation, claims)) continue;
      link.closeWith(SOCKET_CLOSE.tokenRevoked);
      closed++;
    }
    return closed;
  }
}
