/**
 * An environment's credentials: its API keys and the origins its publishable key may be used
 * from. A change that takes credentials away or restricts them (a revoked key, an origin added or
 * removed) calls `onCredentialsChanged` after commit, so every gateway drops what it cached.
 */
import { ServiceError } from '@rtm/errors';
import { hashKey, insertKeyRow, type KeyKind } from '@rtm/auth';
import { CredentialResource } from './credential-resource.ts';
import { auditedChange } from './audited-change.ts';
import type { Actor } from './audit.ts';
import { normaliseAllowedOrigin } from './origins.ts';

export interface KeyView {
  id: string;
  environmentId: string;
  kind: KeyKind;
  /** The first characters of the key, to recognise it. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface OriginView {
  origin: string;
  createdAt: Date;
}

export class Credentials extends CredentialResource {
  // ---------------------------------------------------------------- API keys

  /** Every key of the environment, revoked ones too, newest first; never the key itself. */
  async keys(actor: Actor, environmentId: string): Promise<KeyView[]> {
    await this.access.authorize(actor, { environmentId }, 'read');
    const { rows } = await this.pool.query<KeyRow>(`select ${KEY_COLUMNS} from api_keys where environment_id = $1 order by created_at desc, id desc`, [
      environmentId,
    ]);
    return rows.map(keyView);
  }

  /** A new key; the answer is the only time it is shown (only its hash is stored). */
  async createKey(actor: Actor, environmentId: string, kind: KeyKind): Promise<KeyView & { key: string }> {
    return auditedChange(this.access, actor, { environmentId }, 'manage', async ({ client, audit }) => {
      const made = await insertKeyRow(client, environmentId, kind);
      await audit({ action: 'key.created', targetType: 'key', targetId: made.id, details: { environmentId, kind, prefix: made.hint } });
      return { id: made.id, environmentId, kind, prefix: made.hint, createdAt: made.createdAt, lastUsedAt: null, revokedAt: null, key: made.key };
    });
  }

  /**
   * Revokes a key of the environment; every gateway refuses it at once (`onCredentialsChanged`).
   * Revoking a revoked key changes nothing (`changed: false`).
   */
  async revokeKey(actor: Actor, environmentId: string, keyId: string): Promise<{ key: KeyView; changed: boolean }> {
    const outcome = await auditedChange(this.access, actor, { environmentId }, 'manage', async ({ client, audit }) => {
      const { rows } = await client.query<KeyRow>(`select ${KEY_COLUMNS} from api_keys where id = $1 and environment_id = $2 for update`, [
        keyId,
        environmentId,
      ]);
      if (!rows[0]) throw new ServiceError('not_found', 'no such key');
      if (rows[0].revoked_at !== null) return { key: keyView(rows[0]), changed: false };
      const updated = await client.query<KeyRow>(`update api_keys set revoked_at = now() where id = $1 returning ${KEY_COLUMNS}`, [keyId]);
      const key = keyView(updated.rows[0]!);
      await audit({ action: 'key.revoked', targetType: 'key', targetId: keyId, details: { environmentId, kind: key.kind, prefix: key.prefix } });
      return { key, changed: true };
    });
    if (outcome.changed) await this.onCredentialsChanged(environmentId);
    return outcome;
  }

  /** The environment of a key (for the CLI, which names keys without their environment); null when unknown. */
  async environmentOfKey(keyId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ environment_id: string }>('select environment_id from api_keys where id = $1', [keyId]);
    return rows[0]?.environment_id ?? null;
  }

  /** The id of a key given whole (for the CLI); null when unknown. */
  async keyIdOf(key: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>('select id from api_keys where key_hash = $1', [hashKey(key)]);
    return rows[0]?.id ?? null;
  }

  // ---------------------------------------------------------------- allowed origins

  async origins(actor: Actor, environmentId: string): Promise<OriginView[]> {
    await this.access.authorize(actor, { environmentId }, 'read');
    const { rows } = await this.pool.query<{ origin: string; created_at: Date }>(
      'select origin, created_at from allowed_origins where environment_id = $1 order by origin',
      [environmentId],
    );
    return rows.map((r) => ({ origin: r.origin, createdAt: r.created_at }));
  }

  /** Adds an origin (normalised; 400 when it is not one). Adding one that is there changes nothing. */
  async addOrigin(actor: Actor, environmentId: string, text: string): Promise<OriginView & { added: boolean }> {
    const origin = checkedOrigin(text);
    const outcome = await auditedChange(this.access, actor, { environmentId }, 'manage', async ({ client, audit }) => {
      const inserted = await client.query<{ created_at: Date }>(
        'insert into allowed_origins (environment_id, origin) values ($1, $2) on conflict do nothing returning created_at',
        [environmentId, origin],
      );
      if (!inserted.rows[0]) {
        const existing = await client.query<{ created_at: Date }>('select created_at from allowed_origins where environment_id = $1 and origin = $2', [
          environmentId,
          origin,
        ]);
        return { origin, createdAt: existing.rows[0]!.created_at, added: false };
      }
      await audit({ action: 'origin.added', targetType: 'environment', targetId: environmentId, details: { origin } });
      return { origin, createdAt: inserted.rows[0].created_at, added: true };
    });
    // the first origin restricts a publishable key that was usable from anywhere
    if (outcome.added) await this.onCredentialsChanged(environmentId);
    return outcome;
  }

  /** Removes an origin; true when it was there. */
  async removeOrigin(actor: Actor, environmentId: string, text: string): Promise<{ origin: string; removed: boolean }> {
    const origin = checkedOrigin(text);
    const removed = await auditedChange(this.access, actor, { environmentId }, 'manage', async ({ client, audit }) => {
      const result = await client.query('delete from allowed_origins where environment_id = $1 and origin = $2', [environmentId, origin]);
      if ((result.rowCount ?? 0) === 0) return false;
      await audit({ action: 'origin.removed', targetType: 'environment', targetId: environmentId, details: { origin } });
      return true;
    });
    if (removed) await this.onCredentialsChanged(environmentId);
    return { origin, removed };
  }
}

function checkedOrigin(text: string): string {
  const check = normaliseAllowedOrigin(text);
  if (!check.ok) throw new ServiceError('invalid_request', check.reason);
  return check.origin;
}

interface KeyRow {
  id: string;
  environment_id: string;
  kind: KeyKind;
  hint: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const KEY_COLUMNS = 'id, environment_id, kind, hint, created_at, last_used_at, revoked_at';

const keyView = (r: KeyRow): KeyView => ({
  id: r.id,
  environmentId: r.environment_id,
  kind: r.kind,
  prefix: r.hint,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});
