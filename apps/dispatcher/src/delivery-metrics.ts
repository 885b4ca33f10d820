/**
 * The deliverer's metrics (deliverer.ts), registered once per process from their entries in
 * the metrics catalogue (libs/ops/src/metrics-catalogue.ts).
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { counterSpec, histogramSpec } from '@rtm/ops';

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
      ...counterSpec('webhook_deferrals_total'),
      registers: [registry],
    }),
    requeued: new Counter({
      ...counterSpec('webhook_requeued_total'),
      registers: [registry],
    }),
    leased: new Counter({
      ...counterSpec('webhook_leased_total'),
      registers: [registry],
    }),
    attempts: new Counter({
      ...counterSpec('webhook_attempts_total'),
      registers: [registry],
    }),
    dropped: new Counter({
      ...counterSpec('webhook_dropped_total'),
      registers: [registry],
    }),
    duration: new Histogram({
      ...histogramSpec('webhook_attempt_duration_seconds'),
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
