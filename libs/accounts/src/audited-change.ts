/**
 * The shape of every change the dashboard and the CLI make: in one transaction, check the actor's
 * right on the scope, change, and write the audit entry. A change that turns out to change nothing
 * writes no entry.
 */
import { withTransaction, type PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { recordAudit, type Actor, type AuditEntry } from './audit.ts';
import type { Access, AccessControl, Scope } from './access.ts';
import type { Right } from './roles.ts';

export interface Change {
  client: PoolClient;
  access: Access;
  /** Writes the change's audit entry in its transaction; the organization is the scope's unless named. */
  audit(entry: Omit<AuditEntry, 'organizationId'> & { organizationId?: string }): Promise<void>;
}

export function auditedChange<T>(access: AccessControl, actor: Actor, scope: Scope, right: Right, change: (tx: Change) => Promise<T>): Promise<T> {
  return withTransaction(access.pool, async (client) => {
    const granted = await access.authorize(actor, scope, right, client);
    return change({
      client,
      access: granted,
      audit: (entry) => recordAudit(client, actor, { ...entry, organizationId: entry.organizationId ?? granted.organizationId }),
    });
  });
}

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '23505';
}

/** `fn`, with a unique violation answered as `invalid_request` with `message`. */
export async function unique<T>(message: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ServiceError('invalid_request', message);
    throw error;
  }
}
