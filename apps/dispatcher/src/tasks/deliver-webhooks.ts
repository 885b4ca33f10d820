import type { Task } from 'graphile-worker';
import type { DeliverBatchPayload } from '@rtm/webhooks';
import type { Deliverer } from '../deliverer.ts';

/**
 * `deliver_webhooks` {ids}: the deliveries of one publish batch, enqueued in the transaction that
 * persisted the messages. A failed delivery gets its own `deliver_webhook` job; this job fails
 * (and graphile-worker retries it) only when the ledger could not be written.
 */
export const deliverWebhooks =
  (deliverer: Deliverer): Task =>
  async (payload) => {
    const { ids } = payload as DeliverBatchPayload;
    if (!Array.isArray(ids)) throw new Error('deliver_webhooks: payload.ids must be an array');
    await deliverer.deliver(ids.filter((id): id is string => typeof id === 'string'));
  };
