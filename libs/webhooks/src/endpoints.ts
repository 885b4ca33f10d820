/**
 * The `webhook_endpoints` table: an environment's endpoints beside its default one (the deployed
 * configuration's `webhooks.url`). Create, list, read, change and delete; each endpoint's signing
 * secret, read and rotated as the environment's (secret-store.ts), encrypted at rest bound to the
 * endpoint's row. Every query is scoped by the environment: another environment's endpoint is
 * `not_found`. The caller checks the URL against the policy (checkWebhookUrl) before it comes here.
 */
import { newId, withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { WebhookEndpoint, WebhookEventType } from '@rtm/schemas';
import type { z } from 'zod';
import { generateWebhookSecret } from './signature.ts';
import { decryptSecret, encryptSecret, type SecretColumn, type SecretKeyring, type SecretSlot } from './secret-box.ts';
import { requeueWaitingDeliveries } from './delivery-ledger.ts';

/** Endpoints an environment may have (its default one not counted). */
export const MAX_ENDPOINTS_PER_ENVIRONMENT = 50;

const slot = (endpointId: string, column: SecretColumn): SecretSlot => ({ table: 'webhook_endpoints', environmentId: endpointId, column });

interface EndpointRecord {
  id: string;
  url: string;
  description: string;
  event_types: string[] | null;
  channels: string[] | null;
  disabled: boolean;
  disabled_reason: 'manual' | 'failing' | null;
  disabled_at: Date | null;
  rate_limit_per_second: number | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, url, description, event_types, channels, disabled, disabled_reason, disabled_at, rate_limit_per_second,
  failing_since, created_at, updated_at`;

export type EndpointView = z.infer<typeof WebhookEndpoint>;

function toView(record: EndpointRecord): EndpointView {
  return {
    id: record.id,
    url: record.url,
    description: record.description,
    eventTypes: record.event_types as WebhookEventType[] | null,
    channels: record.channels,
    disabled: record.disabled,
    ...(record.disabled_reason !== null && { disabledReason: record.disabled_reason }),
    ...(record.disabled_at !== null && { disabledAt: record.disabled_at.toISOString() }),
    rateLimitPerSecond: record.rate_limit_per_second,
    ...(record.failing_since !== null && { failingSince: record.failing_since.toISOString() }),
    createdAt: record.created_at.toISOString(),
    updatedAt: record.updated_at.toISOString(),
  };
}

export interface EndpointInput {
  url: string;
  description?: string | undefined;
  eventTypes?: WebhookEventType[] | null | undefined;
  channels?: string[] | null | undefined;
  disabled?: boolean | undefined;
  rateLimitPerSecond?: number | null | undefined;
}

/** What a change runs inside its transaction (an audit entry), with the endpoint as it is after. */
export type EndpointAudit = (client: PoolClient, endpoint: EndpointView) => Promise<void>;

/** A new endpoint with its secret (shown here and by the secret route, never listed); 400 past the 50th. */
export async function createEndpoint(
  pool: Pool,
  keyring: SecretKeyring,
  environmentId: string,
  input: EndpointInput,
  audit: EndpointAudit = async () => {},
): Promise<EndpointView & { secret: string }> {
  const id = newId('ep');
  const secret = generateWebhookSecret();
  const view = await withTransaction(pool, async (client) => {
    // the environment's row, locked: two creates at once cannot both pass the count
    await client.query('select 1 from environments where id = $1 for update', [environmentId]);
    const { rows: counted } = await client.query<{ n: number }>('select count(*)::int as n from webhook_endpoints where environment_id = $1', [environmentId]);
    if (counted[0]!.n >= MAX_ENDPOINTS_PER_ENVIRONMENT) {
      throw new ServiceError('invalid_request', `an environment has at most ${MAX_ENDPOINTS_PER_ENVIRONMENT} webhook endpoints; delete one first`);
    }
    const disabled = input.disabled ?? false;
    const { rows } = await client.query<EndpointRecord>(
      `insert into webhook_endpoints (id, environment_id, url, description, event_types, channels, disabled, disabled_reason, disabled_at,
                                      rate_limit_per_second, secret, key_id)
       values ($1, $2, $3, $4, $5, $6, $7, case when $7 then 'manual' end, case when $7 then now() end, $8, $9, $10)
       returning ${COLUMNS}`,
      [
        id,
        environmentId,
        input.url,
        input.description ?? '',
        input.eventTypes ?? null,
        input.channels ?? null,
        disabled,
        input.rateLimitPerSecond ?? null,
        encryptSecret(keyring, secret, slot(id, 'secret')),
        keyring.currentId,
      ],
    );
    const created = toView(rows[0]!);
    await audit(client, created);
    return created;
  });
  return { ...view, secret };
}

/** Oldest first: the endpoints after `after` (an endpoint id; null from the first), and whether more follow. */
export async function listEndpoints(
  pool: Pool,
  environmentId: string,
  page: { after: string | null; limit: number },
): Promise<{ data: EndpointView[]; more: boolean }> {
  const { rows } = await pool.query<EndpointRecord>(
    `select ${COLUMNS} from webhook_endpoints where environment_id = $1 and ($2::text is null or id > $2) order by id limit $3`,
    [environmentId, page.after, page.limit + 1],
  );
  return { data: rows.slice(0, page.limit).map(toView), more: rows.length > page.limit };
}

export async function getEndpoint(pool: Pool | PoolClient, environmentId: string, id: string): Promise<EndpointView> {
  const { rows } = await pool.query<EndpointRecord>(`select ${COLUMNS} from webhook_endpoints where id = $1 and environment_id = $2`, [id, environmentId]);
  if (!rows[0]) throw new ServiceError('not_found', 'no such webhook endpoint');
  return toView(rows[0]);
}

/**
 * Changes what `change` names (an absent field stays; `null` clears a filter or the rate limit).
 * Disabling by hand records `manual`; enabling clears the reason and the failing streak, and
 * makes the deliveries that waited while it was disabled due now.
 */
export async function updateEndpoint(
  pool: Pool,
  environmentId: string,
  id: string,
  change: Partial<EndpointInput>,
  audit: EndpointAudit = async () => {},
): Promise<EndpointView> {
  return withTransaction(pool, async (client) => {
    const has = (key: keyof EndpointInput) => change[key] !== undefined;
    // enabling: was it disabled? (its pending deliveries waited; they go again now)
    const enabling =
      change.disabled === false &&
      (await client.query('select 1 from webhook_endpoints where id = $1 and environment_id = $2 and disabled for update', [id, environmentId])).rowCount === 1;
    const { rows } = await client.query<EndpointRecord>(
      `update webhook_endpoints set
         url = coalesce($3, url),
         description = coalesce($4, description),
         event_types = case when $5 then $6::text[] else event_types end,
         channels = case when $7 then $8::text[] else channels end,
         rate_limit_per_second = case when $9 then $10::int else rate_limit_per_second end,
         disabled_reason = case when $11::boolean is null then disabled_reason
                                when $11 and not disabled then 'manual' when $11 then disabled_reason end,
         disabled_at = case when $11::boolean is null then disabled_at when $11 and not disabled then now() when $11 then disabled_at end,
         failing_since = case when $11 = false then null else failing_since end,
         disabled = coalesce($11, disabled),
         updated_at = now()
       where id = $1 and environment_id = $2
       returning ${COLUMNS}`,
      [
        id,
        environmentId,
        change.url ?? null,
        change.description ?? null,
        has('eventTypes'),
        change.eventTypes ?? null,
        has('channels'),
        change.channels ?? null,
        has('rateLimitPerSecond'),
        change.rateLimitPerSecond ?? null,
        change.disabled ?? null,
      ],
    );
    if (!rows[0]) throw new ServiceError('not_found', 'no such webhook endpoint');
    if (enabling) await requeueWaitingDeliveries(client, environmentId, id);
    const updated = toView(rows[0]);
    await audit(client, updated);
    return updated;
  });
}

/** Deletes the endpoint with its deliveries and their attempts; 404 for an unknown one. */
export async function deleteEndpoint(pool: Pool, environmentId: string, id: string, audit: EndpointAudit = async () => {}): Promise<void> {
  await withTransaction(pool, async (client) => {
    const { rows } = await client.query<EndpointRecord>(`delete from webhook_endpoints where id = $1 and environment_id = $2 returning ${COLUMNS}`, [
      id,
      environmentId,
    ]);
    if (!rows[0]) throw new ServiceError('not_found', 'no such webhook endpoint');
    await audit(client, toView(rows[0]));
  });
}

/** The endpoint's current signing secret; 404 for an unknown endpoint. */
export async function readEndpointSecret(pool: Pool, keyring: SecretKeyring, environmentId: string, id: string): Promise<string> {
  const { rows } = await pool.query<{ secret: string }>('select secret from webhook_endpoints where id = $1 and environment_id = $2', [id, environmentId]);
  if (!rows[0]) throw new ServiceError('not_found', 'no such webhook endpoint');
  return decryptSecret(keyring, rows[0].secret, slot(id, 'secret'));
}

/**
 * A new secret for the endpoint; the old one signs too for 24 h (both signatures on every
 * delivery, the new first), as the environment's. 404 for an unknown endpoint.
 */
export async function rotateEndpointSecret(
  pool: Pool,
  keyring: SecretKeyring,
  environmentId: string,
  id: string,
  audit: EndpointAudit = async () => {},
): Promise<string> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ secret: string }>('select secret from webhook_endpoints where id = $1 and environment_id = $2 for update', [
      id,
      environmentId,
    ]);
    if (!rows[0]) throw new ServiceError('not_found', 'no such webhook endpoint');
    const previous = decryptSecret(keyring, rows[0].secret, slot(id, 'secret'));
    const secret = generateWebhookSecret();
    const rotated = await client.query<EndpointRecord>(
      `update webhook_endpoints set secret = $2, previous_secret = $3, rotated_at = now(), key_id = $4, updated_at = now() where id = $1
       returning ${COLUMNS}`,
      [id, encryptSecret(keyring, secret, slot(id, 'secret')), encryptSecret(keyring, previous, slot(id, 'previous_secret')), keyring.currentId],
    );
    await audit(client, toView(rotated.rows[0]!));
    return secret;
  });
}

/** Enabled endpoints whose attempts have all failed for `afterMs` or longer, longest first, at most `limit`. */
export async function failingEndpointIds(pool: Pool, afterMs: number, limit: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `select id from webhook_endpoints
     where failing_since is not null and not disabled and failing_since < now() - $1::bigint * interval '1 millisecond'
     order by failing_since limit $2`,
    [afterMs, limit],
  );
  return rows.map((row) => row.id);
}

/** An endpoint disabled for failing, with what its event and audit entry name. */
export interface FailingEndpoint {
  id: string;
  environment_id: string;
  url: string;
  failing_since: Date;
  disabled_at: Date;
  organization_id: string;
}

/**
 * Disables the endpoint, on the caller's transaction, if it is still enabled and still failing
 * since before `afterMs` ago: the record statement clears `failing_since` on a success, so a
 * success that came since the endpoint was read keeps it enabled. Null when it was not disabled.
 */
export async function disableFailingEndpoint(client: PoolClient, id: string, afterMs: number): Promise<FailingEndpoint | null> {
  const { rows } = await client.query<FailingEndpoint>(
    `update webhook_endpoints w
     set disabled = true, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
     where w.id = $1 and not w.disabled and w.failing_since < now() - $2::bigint * interval '1 millisecond'
     returning w.id, w.environment_id, w.url, w.failing_since, w.disabled_at,
       (select p.organization_id from environments e join projects p on p.id = e.project_id where e.id = w.environment_id) as organization_id`,
    [id, afterMs],
  );
  return rows[0] ?? null;
}
