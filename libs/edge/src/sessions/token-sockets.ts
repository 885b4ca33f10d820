import { refuses, type Revocation, type UserClaims } from '@rtm/auth';
import { SOCKET_CLOSE } from '../sockets/close-codes.ts';
import type { Link, TokenWatch } from './link.ts';

/**
 * The token each open socket of this gateway was authenticated with, by environment, so a
 * revocation (one token, or every token of a user issued before a moment) closes exactly the
 * sockets it refuses, with 4401. A multiplexed connection that re-authenticates is watched under
 * its newest token. The claims are kept on the link itself (`link.claims`, which its connection
 * holds anyway) and the link leaves the index when it closes (`forget`): no entry object or
 * closure per socket.
 */
export class TokenSockets implements TokenWatch {
  private readonly byEnvironment = new Map<string, Set<Link>>();
  /** Told when a link joins and leaves an environment's set: the connection time it counts (connection-quota.ts). */
  private readonly counted: { opened(environmentId: string): void; closed(environmentId: string): void } | undefined;

  constructor(counted?: { opened(environmentId: string): void; closed(environmentId: string): void }) {
    this.counted = counted;
  }

  watch(link: Link, claims: UserClaims): void {
    if (link.closed) return;
    if (link.claims && link.claims.environmentId !== claims.environmentId) this.forget(link);
    let links = this.byEnvironment.get(claims.environmentId);
    if (!links) this.byEnvironment.set(claims.environmentId, (links = new Set()));
    if (!links.has(link)) {
      links.add(link);
      this.counted?.opened(claims.environmentId);
    }
    link.claims = claims;
    link.tokens = this;
  }

  /** The link closed (Link.stop): it leaves the index. */
  forget(link: Link): void {
    const environmentId = link.claims?.environmentId;
    if (environmentId === undefined) return;
    const links = this.byEnvironment.get(environmentId);
    if (links?.delete(link)) this.counted?.closed(environmentId);
    if (links?.size === 0) this.byEnvironment.delete(environmentId);
  }

  /** Closes (4401) this gateway's sockets whose token the revocation refuses; returns how many. */
  close(revocation: Revocation): number {
    const links = this.byEnvironment.get(revocation.environmentId);
    if (!links) return 0;
    let closed = 0;
    for (const link of [...links]) {
      if (!link.claims || !refuses(revocation, link.claims)) continue;
      link.closeWith(SOCKET_CLOSE.tokenRevoked);
      closed++;
    }
    return closed;
  }
}
