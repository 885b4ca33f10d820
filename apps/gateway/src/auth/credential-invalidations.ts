/**
 * What keeps this gateway's credential caches true to the cluster's changes, over the bus:
 * - `subjects.invalidate`: a revoked key, removed origin or retired signing key; every gateway
 *   forgets that environment's credentials and tenant keys at once (none named: every one);
 * - `subjects.revocations`: a revoked token; every gateway refuses it at once and closes its
 *   sockets (4401, revoke.ts).
 * Started and stopped by services.ts.
 */
import type { Subjects, Subscriber } from '@rtm/bus';
import { decodeInvalidation } from '@rtm/limits';
import { decodeRevocation, type CredentialStore, type TenantKeys } from '@rtm/auth';
import { applyRevocation, type RevocationDeps } from './revoke.ts';

/** The two subjects, the caches an invalidation empties, and what a revocation touches (revoke.ts). */
export interface InvalidationDeps extends RevocationDeps {
  nc: Pick<Subscriber, 'subscribe'>;
  subjects: Pick<Subjects, 'invalidate' | 'revocations'>;
  credentials: Pick<CredentialStore, 'clear' | 'invalidate'>;
  tenantKeys: Pick<TenantKeys, 'clear' | 'invalidate'>;
}

export class CredentialInvalidations {
  readonly #deps: InvalidationDeps;
  #subscriptions: { unsubscribe(): void }[] = [];

  constructor(deps: InvalidationDeps) {
    this.#deps = deps;
  }

  start(): void {
    const deps = this.#deps;
    if (this.#subscriptions.length > 0) return;
    this.#subscriptions = [
      deps.nc.subscribe(deps.subjects.invalidate, {
        callback: (_error, msg) => {
          const environmentId = decodeInvalidation(msg.data);
          if (environmentId === undefined) {
            deps.credentials.clear();
            deps.tenantKeys.clear();
          } else {
            deps.credentials.invalidate(environmentId);
            deps.tenantKeys.invalidate(environmentId);
          }
        },
      }),
      deps.nc.subscribe(deps.subjects.revocations, {
        callback: (_error, msg) => {
          const revocation = decodeRevocation(msg.data);
          if (revocation) applyRevocation(deps, revocation);
        },
      }),
    ];
  }

  stop(): void {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
    this.#subscriptions = [];
  }
}
