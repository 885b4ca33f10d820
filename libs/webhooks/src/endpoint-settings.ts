/**
 * An endpoint's settings as a send reads them: its signing secrets as stored and its own rate
 * limit. Here because two sides read the same columns: a channel-node's commit puts them in its
 * post-commit notice (push-notice.ts), and the dispatcher's claim and reads return them
 * (apps/dispatcher/src/delivery/endpoint-settings.ts, delivery-leases.ts, intake/delivery-log.ts).
 */

/** Signing secrets as stored, the way a claim reads them (`ClaimedDelivery.secrets`). */
export interface StoredSecrets {
  secret: string;
  previous_secret: string | null;
  rotated_at: string | null;
}

/**
 * The endpoint's signing secrets (as stored) and own rate limit for a row of `webhook_deliveries`
 * (alias `d`): what a send needs besides the row. `secrets` is null when the endpoint has none;
 * `rate_limit` null for none and for the default endpoint.
 */
export const SETTINGS_COLUMNS = (d: string): string => `case when ${d}.endpoint_id is null
           then (select row_to_json(s) from (select secret, previous_secret, rotated_at from webhook_secrets
                                             where environment_id = ${d}.environment_id) s)
           else (select row_to_json(s) from (select secret, previous_secret, rotated_at from webhook_endpoints
                                             where id = ${d}.endpoint_id) s) end as secrets,
         case when ${d}.endpoint_id is not null
           then (select rate_limit_per_second from webhook_endpoints where id = ${d}.endpoint_id) end as rate_limit`;
