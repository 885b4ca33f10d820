/**
 * The audit log: who changed what, when, in which organization. Every change made through this
 * package writes its entry in the same transaction as the change itself, so an entry exists
 * exactly when the change does. Other subsystems record theirs with `recordAudit` the same way.
 */
import { newId, type Pool, type PoolClient } from '@rtm/db';

/**
 * Who acts: a signed-in user, the operator's admin CLI, a secret key (`keyId`: its `key_…` id; a
 * server acting through the control plane), or the service itself.
 */
export type Actor = { kind: 'user'; userId: string; email: string } | { kind: 'cli' } | { kind: 'key'; keyId: string } | { kind: 'system' };

export const CLI_ACTOR: Actor = Object.freeze({ kind: 'cli' });

export interface AuditEntry {
  organizationId: string;
  /** `<target type>.<past-tense verb>`, e.g. `key.revoked`. */
  action: string;
  targetType: string;
  targetId?: string | null;
  /** Names and values worth keeping after the target is gone; never a secret. */
  details?: Record<string, unknown>;
}

export interface AuditRecord {
  id: string;
  at: Date;
  actor: { kind: Actor['kind']; id: string | null; email: string | null };
  action: string;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
}

const actorId = (actor: Actor) => (actor.kind === 'user' ? actor.userId : actor.kind === 'key' ? actor.keyId : null);

/** The entry's values after its organization: $1 id, $3.. actor, action, target, details. */
function entryValues(actor: Actor, entry: Omit<AuditEntry, 'organizationId'>): unknown[] {
  return [
    newId('aud'),
    actor.kind,
    actorId(actor),
    actor.kind === 'user' ? actor.email : null,
    entry.action,
    entry.targetType,
    entry.targetId ?? null,
    JSON.stringify(entry.details ?? {}),
  ];
}

const INSERT = 'insert into audit_log (id, actor_kind, actor_id, actor_email, action, target_type, target_id, details, organization_id)';

export async function recordAudit(client: Pool | PoolClient, actor: Actor, entry: AuditEntry): Promise<void> {
  await client.query(`${INSERT} values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [...entryValues(actor, entry), entry.organizationId]);
}

/**
 * An entry in the organization that holds `environmentId`, for a change made where only the
 * environment is known (a secret key's request). Nothing is written for an unknown environment.
 */
export async function recordEnvironmentAudit(
  client: Pool | PoolClient,
  actor: Actor,
  environmentId: string,
  entry: Omit<AuditEntry, 'organizationId'>,
): Promise<void> {
  await client.query(
    `${INSERT} select $1, $2, $3, $4, $5, $6, $7, $8, p.organization_id
     from environments e join projects p on p.id = e.project_id where e.id = $9`,
    [...entryValues(actor, entry), environmentId],
  );
}

export const AUDIT_ID_PATTERN = /^aud_[0-9a-z]{26}$/;

/** One page of an organization's entries, newest first, before the entry `before` when given. */
export async function listAudit(
  pool: Pool | PoolClient,
  organizationId: string,
  page: { limit: number; before?: string | undefined },
): Promise<{ entries: AuditRecord[]; more: boolean }> {
  const { rows } = await pool.query<{
    id: string;
    created_at: Date;
    actor_kind: Actor['kind'];
    actor_id: string | null;
    actor_email: string | null;
    action: string;
    target_type: string;
    target_id: string | null;
    details: Record<string, unknown>;
  }>(
    `select id, created_at, actor_kind, actor_id, actor_email, action, target_type, target_id, details
     from audit_log where organization_id = $1 and ($2::text is null or id < $2)
     order by id desc limit $3`,
    [organizationId, page.before ?? null, page.limit + 1],
  );
  return {
    more: rows.length > page.limit,
    entries: rows.slice(0, page.limit).map((row) => ({
      id: row.id,
      at: row.created_at,
      actor: { kind: row.actor_kind, id: row.actor_id, email: row.actor_email },
      action: row.action,
      target: { type: row.target_type, id: row.target_id },
      details: row.details,
    })),
  };
}
