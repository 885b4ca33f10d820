/**
 * The deliverer's metrics (deliverer.ts), registered once per process; each is listed in the
 * catalogue of docs/operations.md.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

export interface DeliveryMetrics {
  attempts: Counter<'result'>;
  duration: Histogram;
  deferred: Counter<'reason'>;
  dropped: Counter;
  requeued: Counter;
  leased: Counter<'by'>;
}

export function deliveryMetrics(registry: Registry): DeliveryMetrics {
  return {
    deferred: new Counter({
      name: 'webhook_deferrals_total',
      help: 'Claimed deliveries put back without an attempt, by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    requeued: new Counter({
      name: 'webhook_requeued_total',
      help: "Claimed deliveries whose endpoint had no room after all, put back in the owner's memory queue (lease released, no deferral)",
      registers: [registry],
    }),
    leased: new Counter({
      name: 'webhook_leased_total',
      help: 'Deliveries taken for a send, by how they were leased: notice (sent as the post-commit notice carried them, under their commit lease: no claim) or claim',
      labelNames: ['by'],
      registers: [registry],
    }),
    attempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by result',
      labelNames: ['result'],
      registers: [registry],
    }),
    dropped: new Counter({
      name: 'webhook_dropped_total',
      help: 'Deliveries dropped: their last attempt failed with the retry schedule used up (status dropped, kept for retention)',
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
