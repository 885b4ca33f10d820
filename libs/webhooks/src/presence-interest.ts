/**
 * Where the presence-driven events are wanted (docs/webhook-events.md, "Channel and presence
 * events"): the enabled endpoints whose `eventTypes` name one of them. Gateways read this every
 * few seconds and decide transitions only for those environments and channels, so nothing is
 * decided, and nothing written, where no endpoint wants them. The read is served by the partial
 * index of migration 000021 (its predicate is this query's).
 */
import type { Pool } from '@rtm/db';
import { OPT_IN_EVENT_TYPES, type WebhookEventType } from '@rtm/schemas/webhook-events';

export interface PresenceEndpoint {
  environmentId: string;
  /** The types it names (of every kind: the presence-driven ones among them). */
  eventTypes: readonly WebhookEventType[];
  /** Its channel patterns; null: every channel. */
  channels: readonly string[] | null;
}

const OPT_IN_SQL = `array[${OPT_IN_EVENT_TYPES.map((type) => `'${type}'`).join(', ')}]::text[]`;

export async function readPresenceEndpoints(pool: Pool): Promise<PresenceEndpoint[]> {
  const { rows } = await pool.query<{ environment_id: string; event_types: WebhookEventType[]; channels: string[] | null }>(
    `select environment_id, event_types, channels from webhook_endpoints
     where not disabled and event_types && ${OPT_IN_SQL}`,
  );
  return rows.map((row) => ({ environmentId: row.environment_id, eventTypes: row.event_types, channels: row.channels }));
}

/**
 * Whether an endpoint takes an event of `type` about `channelId`: the TypeScript form of
 * `endpointTakesSql` (enqueue.ts), which stays the rule that decides at the insert.
 */
export function endpointTakes(endpoint: Pick<PresenceEndpoint, 'eventTypes' | 'channels'>, type: WebhookEventType, channelId: string | null): boolean {
  if (!endpoint.eventTypes.includes(type)) return false;
  if (endpoint.channels === null || channelId === null) return true;
  return endpoint.channels.some((p) => p === '*' || p === channelId || (p.endsWith('*') && channelId.startsWith(p.slice(0, -1))));
}
