import type { Task } from 'graphile-worker';
import type { DeliverOnePayload } from '@rtm/webhooks';
import type { PushIntake } from '../push-intake.ts';

/**
 * `deliver_webhook` {id}: one delivery, at the time its retry schedule (or a manual retry, or the
 * reconciler) says. Job key `webhook:<id>`, so a delivery has at most one waiting job. Sent by
 * the owner of its environment's webhook partition (push-intake.ts `route`).
 */
export const deliverWebhook =
  (intake: Pick<PushIntake, 'route'>): Task =>
  async (payload) => {
    const { id } = payload as DeliverOnePayload;
    if (typeof id !== 'string') throw new Error('deliver_webhook: payload.id must be a string');
    await intake.route([id]);
  };
