import { Counter, Gauge, type Registry } from 'prom-client';

export interface SessionMetrics {
  /** Open inbox and logs sockets on this gateway (channel sockets are counted by their module). */
  sockets: Gauge<'kind'>;
  notifications: Counter;
  kicks: Counter<'scope'>;
  presenceEntries: Gauge;
}

const byRegistry = new WeakMap<Registry, SessionMetrics>();

/** The metrics of sessions, notifications, kicks and presence, registered once per registry. */
export function sessionMetricsOf(registry: Registry): SessionMetrics {
  let metrics = byRegistry.get(registry);
  if (metrics) return metrics;
  metrics = {
    sockets: new Gauge({ name: 'gateway_open_sockets', help: 'Open inbox and logs sockets', labelNames: ['kind'], registers: [registry] }),
    notifications: new Counter({ name: 'gateway_notifications_total', help: 'Notifications stored by POST /v1/notifications', registers: [registry] }),
    kicks: new Counter({ name: 'gateway_kicked_sockets_total', help: 'Sockets closed with 4403 by a ban, removal or access change', labelNames: ['scope'], registers: [registry] }),
    presenceEntries: new Gauge({ name: 'gateway_presence_entries', help: '(environment, channel, user) presence entries this gateway holds', registers: [registry] }),
  };
  byRegistry.set(registry, metrics);
  return metrics;
}
