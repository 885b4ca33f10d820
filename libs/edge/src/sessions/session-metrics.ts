import { Counter, Gauge, type Registry } from 'prom-client';
import { counterSpec, gaugeSpec } from '@rtm/ops';

export interface SessionMetrics {
  /** Open channel, inbox, logs and multiplexed sockets on this gateway. */
  sockets: Gauge<'kind'>;
  /** Bytes queued to clients, summed over every socket at the last budget check. */
  queuedBytes: Gauge;
  /** Sockets closed as slow consumers because the gateway's send budget was spent. */
  shed: Counter;
  notifications: Counter;
  /** Notifications of POST /v1/notifications not stored: the user was over notificationsPerUserPerMinute. */
  notificationsDropped: Counter;
  kicks: Counter<'scope'>;
  presenceEntries: Gauge;
  /** Live channel subscriptions of multiplexed connections (`/v1/connect`). */
  subscriptions: Gauge;
  /** Subscribes and replay page reads admitted and running / waiting their environment's turn (sessions/fair-gate.ts). */
  admissionRunning: Gauge;
  admissionWaiting: Gauge;
  /** Subscribes and replay page reads refused because their environment's queue was full. */
  admissionRefused: Counter;
}

/** The metrics of sessions, notifications, kicks and presence, registered in `registry` (once per gateway: edge-deps.ts). */
export function createSessionMetrics(registry: Registry): SessionMetrics {
  return {
    sockets: new Gauge({ ...gaugeSpec('gateway_open_sockets'), registers: [registry] }),
    queuedBytes: new Gauge({ ...gaugeSpec('gateway_socket_queued_bytes'), registers: [registry] }),
    shed: new Counter({ ...counterSpec('gateway_sockets_shed_total'), registers: [registry] }),
    notifications: new Counter({ ...counterSpec('gateway_notifications_total'), registers: [registry] }),
    notificationsDropped: new Counter({
      ...counterSpec('gateway_notifications_dropped_total'),
      registers: [registry],
    }),
    kicks: new Counter({ ...counterSpec('gateway_kicked_sockets_total'), registers: [registry] }),
    subscriptions: new Gauge({ ...gaugeSpec('gateway_subscriptions'), registers: [registry] }),
    admissionRunning: new Gauge({ ...gaugeSpec('gateway_admission_running'), registers: [registry] }),
    admissionWaiting: new Gauge({ ...gaugeSpec('gateway_admission_waiting'), registers: [registry] }),
    admissionRefused: new Counter({ ...counterSpec('gateway_admission_refused_total'), registers: [registry] }),
    presenceEntries: new Gauge({ ...gaugeSpec('gateway_presence_entries'), registers: [registry] }),
  };
}
