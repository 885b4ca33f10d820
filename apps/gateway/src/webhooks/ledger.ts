/**
 * The delivery ledger as both hosts serve it (routes/webhooks.ts with the secret key,
 * routes/dashboard/webhooks.ts for a session): pages with an opaque cursor, and a retry that
 * shows in the environment's live log. The queries are libs/webhooks' (delivery-ledger.ts); one
 * delivery is read there directly (`getDelivery`). Pages and single deliveries are read with
 * `deps.reads.current` (docs/read-replicas.md); a retry's read is part of its write, on the primary.
 */
import type { PoolClient } from '@rtm/db';
import { publishLog } from '@rtm/bus';
import { listDeliveries as readDeliveries, retryDelivery as requeueDelivery, type DeliveryStatus } from '@rtm/webhooks';
import { DELIVERY_ID_PATTERN, type DeliveryRow } from '@rtm/schemas';
import type { z } from 'zod';
import type { GatewayDeps } from '../deps.ts';
import { decodeCursor, encodeCursor } from '../http/list-cursor.ts';

/** The ledger's reads and the live log. */
type LedgerDeps = Pick<GatewayDeps, 'nc' | 'pool' | 'reads' | 'subjects'>;

// the cursor is the last row's id (list-cursor.ts)
const isDeliveryId = (id: string) => DELIVERY_ID_PATTERN.test(id);

/** Newest first; `cursor` is the previous page's `nextCursor`. */
export async function listDeliveries(
  deps: LedgerDeps,
  environmentId: string,
  query: { status?: DeliveryStatus; endpointId?: string; limit?: number; cursor?: string },
) {
  const before = query.cursor === undefined ? null : decodeCursor(query.cursor, isDeliveryId);
  const page = { status: query.status, endpointId: query.endpointId, before, limit: query.limit ?? 50 };
  // every change committed before the request, from the read pool once it has them (docs/read-replicas.md)
  const { data, more } = await deps.reads.current('ledger', (db) => readDeliveries(db, environmentId, page));
  return { data, nextCursor: more ? encodeCursor(data[data.length - 1]!.id) : null };
}

/** Re-queues a dropped delivery (404 unknown, 400 not dropped); `audit` runs inside its transaction. */
export async function retryDelivery(
  deps: LedgerDeps,
  environmentId: string,
  id: string,
  audit?: (client: PoolClient, delivery: z.infer<typeof DeliveryRow>) => Promise<void>,
) {
  const delivery = await requeueDelivery(deps.pool, environmentId, id, audit);
  publishLog(deps.nc, deps.subjects, environmentId, 'info', 'webhook.retry_requested', { deliveryId: id });
  return delivery;
}
