/**
 * The owner intake's metrics (push-intake.ts), registered once per process; each is listed in the
 * catalogue of docs/operations.md.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface IntakeMetrics {
  notices: Counter<'result'>;
  forwards: Counter<'result'>;
  caughtUp: Counter;
  adopted: Counter;
}

/** `read`: the gauges' values, read when scraped. */
export function intakeMetrics(registry: Registry, read: { queued(): number; held(): number; owned(): number }): IntakeMetrics {
  // each written out in full: the deploy checks find the metrics the code defines by their constructors
  new Gauge({
    name: 'webhook_push_queued',
    help: "Deliveries waiting in this dispatcher's memory: for a place in the send window, or held back by their endpoint's limit or open circuit",
    registers: [registry],
    collect() {
      this.set(read.queued());
    },
  });
  new Gauge({
    name: 'webhook_push_rows_held',
    help: "Deliveries waiting in this dispatcher's memory with the row their notice carried: sent without a claim while their commit lease lasts",
    registers: [registry],
    collect() {
      this.set(read.held());
    },
  });
  new Gauge({
    name: 'webhook_partitions_owned',
    help: "Webhook partitions (of 16) this dispatcher owns: it alone sends to their environments' endpoints",
    registers: [registry],
    collect() {
      this.set(read.owned());
    },
  });
  return {
    notices: new Counter({
      name: 'webhook_notices_total',
      help: 'Delivery notices taken by this dispatcher as owner: queued (sent from memory) or overflow (left to the catch-up)',
      labelNames: ['result'],
      registers: [registry],
    }),
    forwards: new Counter({
      name: 'webhook_forwards_total',
      help: "Job deliveries routed by this dispatcher: queued_here (its own partition's, into its memory queue), sent_here (its own, its memory full), forwarded (taken by another partition's owner) or deferred (no owner took them: a job again in a second)",
      labelNames: ['result'],
      registers: [registry],
    }),
    caughtUp: new Counter({
      name: 'webhook_caught_up_total',
      help: 'Deliveries whose notice was lost, found in the ledger by their owner and queued',
      registers: [registry],
    }),
    adopted: new Counter({
      name: 'webhook_adopted_total',
      help: 'Deliveries of a dispatcher that died, taken over by this one when it took the partition (their dead leases claimed over)',
      registers: [registry],
    }),
  };
}
