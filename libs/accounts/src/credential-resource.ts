/**
 * What the resource modules whose changes can take credentials away are built on: credentials.ts
 * (a revoked key, an origin added or removed) and projects.ts (a deleted environment). Their
 * operations start with the access control and read through its pool; `onCredentialsChanged` is
 * called after commit, so every gateway drops what it cached of the environment.
 */
import type { Pool } from '@rtm/db';
import type { AccessControl } from './access.ts';

export type CredentialsChanged = (environmentId: string) => void | Promise<void>;

export abstract class CredentialResource {
  protected readonly access: AccessControl;
  protected readonly onCredentialsChanged: CredentialsChanged;

  constructor(access: AccessControl, onCredentialsChanged: CredentialsChanged) {
    this.access = access;
    this.onCredentialsChanged = onCredentialsChanged;
  }

  protected get pool(): Pool {
    return this.access.pool;
  }
}
