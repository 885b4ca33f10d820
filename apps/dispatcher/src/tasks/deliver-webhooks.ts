import type { Task } from 'graphile-worker';
import type { DeliverBatchPayload } from '@rtm/webhooks';
import type { PushIntake } from '../push-intake.ts';

/**
 * `deliver_webhooks` {ids}: the deliveries of a retraction's transaction, or handed back by a
 * dispatcher that gave up their partition or drained; sent by their owner (push-intake.ts). A failed delivery gets its own `deliver_webhook` job; this job fails
 * (and graphile-worker retries it) only when the ledger could not be written.
 */
export const deliverWebhooks =
  (intake: Pick<PushIntake, 'route'>): Task =>
  async (payload) => {
    const { ids } = payload as DeliverBatchPayload;
    if (!Array.isArray(ids)) throw new Error('deliver_webhooks: payload.ids must be an array');
    await intake.route(ids.filter((id): id is string => typeof id === 'string'));
  };
