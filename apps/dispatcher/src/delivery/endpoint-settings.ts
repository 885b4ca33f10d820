/**
 * An endpoint's settings as a send reads them (a claim's columns, and the owner's read for rows a
 * notice carried): its signing secrets as stored, its own rate limit and where its deliveries go
 * now. The statements that use them are in delivery-leases.ts and intake/delivery-log.ts; the
 * secrets and rate columns are libs/webhooks' (SETTINGS_COLUMNS), shared with the commit's notice.
 */
import type { Pool } from '@rtm/db';
import { SETTINGS_COLUMNS, type StoredSecrets } from '@rtm/webhooks';

/**
 * Where a row of `webhook_deliveries` (alias `d`) is sent now, as `target_url`: its endpoint's
 * URL as it is now (for the default endpoint, the configuration's), so a retry follows a changed
 * URL; null while the endpoint is disabled (the default one: while the configuration has no
 * webhook URL) or gone: then nothing is sent (it is deferred, delivery-life.ts). The row's
 * own `url` stays the one it was created with.
 */
export const TARGET_COLUMN = (d: string): string => `case when ${d}.endpoint_id is null
           then (select webhook_url from environments where id = ${d}.environment_id)
           else (select url from webhook_endpoints where id = ${d}.endpoint_id and not disabled) end as target_url`;

/**
 * What a send needs besides the row, for rows a notice carried ($1 environments, $2 endpoints,
 * '' for the default one): the settings as a claim reads them, and whether the endpoint (or, for
 * the default one, the environment) still exists: its deliveries went with it.
 */

export const SETTINGS_SQL = `select d.environment_id, coalesce(d.endpoint_id, '') as endpoint_key,
         case when d.endpoint_id is null then exists (select 1 from environments where id = d.environment_id)
              else exists (select 1 from webhook_endpoints where id = d.endpoint_id) end as present,
         ${SETTINGS_COLUMNS('d')},
         ${TARGET_COLUMN('d')}
       from (select k.environment_id, nullif(k.endpoint_id, '') as endpoint_id
             from unnest($1::text[], $2::text[]) as k(environment_id, endpoint_id)) d`;

/** A send's settings for an endpoint (SETTINGS_SQL), and whether it still exists. */
export interface EndpointSettings {
  present: boolean;
  secrets: StoredSecrets | null;
  rate_limit: number | null;
  target_url: string | null;
}

/** The key of an endpoint in `endpointSettings`' answer: environment, NUL, endpoint id ('' for the default one). */
export const endpointSettingsKey = (environmentId: string, endpointId: string | null): string => `${environmentId}\u0000${endpointId ?? ''}`;

/** The settings of the endpoints given as `endpointSettingsKey`s (SETTINGS_SQL), by key. */
export async function endpointSettings(pool: Pool, keys: readonly string[]): Promise<Map<string, EndpointSettings>> {
  const unique = [...new Set(keys)].map((key) => key.split('\u0000') as [string, string]);
  const { rows } = await pool.query<EndpointSettings & { environment_id: string; endpoint_key: string }>({
    name: 'rtm_webhook_settings',
    text: SETTINGS_SQL,
    values: [unique.map(([environment]) => environment), unique.map(([, endpoint]) => endpoint)],
  });
  return new Map(rows.map((row) => [`${row.environment_id}\u0000${row.endpoint_key}`, row]));
}
