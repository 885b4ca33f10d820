import type { Task } from 'graphile-worker';
import type { DeliverOnePayload } from '@rtm/webhooks';
import type { Deliverer } from '../deliverer.ts';

/**
 * `deliver_webhook` {id}: one delivery, at the time its retry schedule (or a manual retry, or the
 * reconciler) says. Job key `webhook:<id>`, so a delivery has at most one waiting job.
 */
export const deliverWebhook =
  (deliverer: Deliverer): Task =>
  async (payload) => {
    const { id } = payload as DeliverOnePayload;
    if (typeof id !== 'string') throw new Error('deliver_webhook: payload.id must be a string');
    await deliverer.deliver([id]);
  };
