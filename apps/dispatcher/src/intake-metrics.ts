/**
 * The owner intake's metrics (push-intake.ts), registered once per process from their entries in
 * the metrics catalogue (libs/ops/src/metrics-catalogue.ts).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { counterSpec, gaugeSpec } from '@rtm/ops';

export interface IntakeMetrics {
  notices: Counter<'result'>;
  forwards: Counter<'result'>;
  caughtUp: Counter;
  adopted: Counter;
}

/** `read`: the gauges' values, read when scraped. */
export function intakeMetrics(registry: Registry, read: { queued(): number; held(): number; owned(): number }): IntakeMetrics {
  new Gauge({
    ...gaugeSpec('webhook_push_queued'),
    registers: [registry],
    collect() {
      this.set(read.queued());
    },
  });
  new Gauge({
    ...gaugeSpec('webhook_push_rows_held'),
    registers: [registry],
    collect() {
      this.set(read.held());
    },
  });
  new Gauge({
    ...gaugeSpec('webhook_partitions_owned'),
    registers: [registry],
    collect() {
      this.set(read.owned());
    },
  });
  return {
    notices: new Counter({
      ...counterSpec('webhook_notices_total'),
      registers: [registry],
    }),
    forwards: new Counter({
      ...counterSpec('webhook_forwards_total'),
      registers: [registry],
    }),
    caughtUp: new Counter({
      ...counterSpec('webhook_caught_up_total'),
      registers: [registry],
    }),
    adopted: new Counter({
      ...counterSpec('webhook_adopted_total'),
      registers: [registry],
    }),
  };
}
