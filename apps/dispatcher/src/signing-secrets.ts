/**
 * A claimed delivery's signing secrets, decrypted (delivery/delivery-life.ts). Every delivery of an
 * environment carries the same ciphertext until the secret is rotated (then the stored text, and
 * so the key, changes), so AES-GCM runs once per secret, not once per delivery. A failure is not
 * kept: it is thrown each time, for the caller to defer the delivery.
 */
import { decryptSecret, type SecretKeyring, type SecretSlot } from '@rtm/webhooks';
import { webhookSecrets } from './delivery/secrets-in-grace.ts';
import type { ClaimedDelivery } from './delivery/delivery-leases.ts';

/** Decrypted secrets kept at most; the whole cache is let go beyond (they are decrypted again). */
const MAX_KEPT = 10_000;

export class SigningSecrets {
  readonly #keyring: SecretKeyring;
  readonly #decrypted = new Map<string, string>();

  constructor(keyring: SecretKeyring) {
    this.#keyring = keyring;
  }

  /**
   * The secrets to sign `row` with (the current one, and the previous one during its grace after
   * a rotation), null when its environment has none. Throws when one cannot be decrypted (a key
   * this dispatcher lacks).
   */
  of(row: Pick<ClaimedDelivery, 'environment_id' | 'secrets'> & { endpoint_id?: string | null }, now = Date.now()): string[] | null {
    if (!row.secrets) return null;
    // the default endpoint's secret is the environment's row; another endpoint's is its own row
    const slot = row.endpoint_id == null ? { environmentId: row.environment_id } : { table: 'webhook_endpoints' as const, environmentId: row.endpoint_id };
    return webhookSecrets(
      {
        secret: this.#decrypt(slot, 'secret', row.secrets.secret),
        previous_secret: row.secrets.previous_secret === null ? null : this.#decrypt(slot, 'previous_secret', row.secrets.previous_secret),
        rotated_at: row.secrets.rotated_at ? new Date(row.secrets.rotated_at) : null,
      },
      now,
    );
  }

  #decrypt(row: Omit<SecretSlot, 'column'>, column: 'secret' | 'previous_secret', stored: string): string {
    const key = `${row.table ?? ''}\u0000${row.environmentId}\u0000${column}\u0000${stored}`;
    let plain = this.#decrypted.get(key);
    if (plain === undefined) {
      plain = decryptSecret(this.#keyring, stored, { ...row, column });
      if (this.#decrypted.size >= MAX_KEPT) this.#decrypted.clear();
      this.#decrypted.set(key, plain);
    }
    return plain;
  }
}
