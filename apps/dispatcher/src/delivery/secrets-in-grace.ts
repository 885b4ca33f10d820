/** How long after a rotation the previous secret still signs (24 h). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export interface WebhookSecrets {
  secret: string;
  previous_secret: string | null;
  rotated_at: Date | null;
}

/** The secrets a delivery is signed with now: the current one first, then the previous one while it is in grace. */
export function webhookSecrets(row: WebhookSecrets, now = Date.now()): string[] {
  const secrets = [row.secret];
  if (row.previous_secret && row.rotated_at && now - row.rotated_at.getTime() < PREVIOUS_SECRET_GRACE_MS) {
    secrets.push(row.previous_secret);
  }
  return secrets;
}
