/**
 * Usage per environment (docs/stats.md): each process counts what it sees in a meter and writes
 * it every USAGE_FLUSH_MS into `usage_minutes`. `createUsage` gives the process its counter (a
 * no-op with USAGE_COUNTING=off) and the flusher's start and stop.
 */
import type { Registry } from 'prom-client';
import { counterOf, counterSpec } from '@rtm/ops';
import { UsageFlusher, type Queryable } from './flusher.ts';
import { NO_USAGE, UsageMeter, type Usage } from './meter.ts';

export { USAGE_COLUMNS, PUBLISHED_BY_ROUTE, type PublishRoute, type UsageColumn, type UsageCounter } from './columns.ts';
export { NO_USAGE, UsageMeter, type Usage, type UsageRow } from './meter.ts';
export { FLUSH_SQL, UsageFlusher, flushParams, type FlusherOptions, type Queryable } from './flusher.ts';

export interface ProcessUsage {
  usage: Usage;
  start(): void;
  /** Writes what is left; call after the process stopped counting (sockets closed, commits done). */
  stop(): Promise<void>;
}

export function createUsage(parts: {
  config: { USAGE_FLUSH_MS: number; USAGE_COUNTING: 'on' | 'off' };
  db: Queryable;
  metrics: Registry;
  log: { warn(details: object, message: string): void };
}): ProcessUsage {
  if (parts.config.USAGE_COUNTING === 'off') return { usage: NO_USAGE, start() {}, async stop() {} };
  const meter = new UsageMeter();
  const flusher = new UsageFlusher({
    db: parts.db,
    meter,
    flushMs: parts.config.USAGE_FLUSH_MS,
    log: parts.log,
    flushes: counterOf(parts.metrics, {
      ...counterSpec('usage_flushes_total'),
    }),
  });
  return { usage: meter, start: () => flusher.start(), stop: () => flusher.stop() };
}
