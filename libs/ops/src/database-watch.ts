/**
 * Metrics and logs of a pool's server locator (libs/db server-locator.ts): how often a process
 * searched its listed Postgres servers and what it found, and why new sessions were refused.
 * A search that finds nobody is a primary that is gone (an alert waits on it, docs/operations.md).
 */
import type { Registry } from 'prom-client';
import type { Logger } from './logger.ts';
import { counterSpec } from './metrics-catalogue.ts';
import { counterOf } from './internal-server.ts';

/** The locator's events (structurally: libs/ops does not import libs/db). */
type LocatorEvent = { kind: 'search'; outcome: 'found' | 'none'; ms: number; host?: string } | { kind: 'refused'; host: string; reason: string };

/** `pool`: which of the process's pools (`primary`, or `replica` for DATABASE_READ_URL). */
export function watchDatabase(locator: { observe(observer: (event: LocatorEvent) => void): unknown }, pool: string, metrics: Registry, log: Logger): void {
  // a gateway watches two pools (primary and replica) on one registry: counterOf makes each counter once
  const searches = counterOf(metrics, {
    ...counterSpec('postgres_server_searches_total'),
  });
  const refused = counterOf(metrics, {
    ...counterSpec('postgres_sessions_refused_total'),
  });
  let using: string | undefined;
  locator.observe((event) => {
    if (event.kind === 'refused') {
      refused.inc({ pool, reason: event.reason });
      log.warn({ pool, host: event.host, reason: event.reason }, 'Postgres session refused');
      return;
    }
    searches.inc({ pool, outcome: event.outcome });
    if (event.outcome === 'none') log.warn({ pool, ms: event.ms }, 'no listed Postgres server fits; searching again');
    else if (event.host !== using) log.info({ pool, host: event.host, previous: using, ms: event.ms }, 'Postgres server found');
    using = event.host ?? using;
  });
}
