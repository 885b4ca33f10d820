import { Counter, Gauge, type Registry } from 'prom-client';

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
    sockets: new Gauge({ name: 'gateway_open_sockets', help: 'Open sockets by kind (channel, inbox, logs, connect, events: an event stream of /v1/events)', labelNames: ['kind'], registers: [registry] }),
    queuedBytes: new Gauge({ name: 'gateway_socket_queued_bytes', help: 'Bytes queued to clients over all sockets (SOCKET_SEND_BUDGET bounds it)', registers: [registry] }),
    shed: new Counter({ name: 'gateway_sockets_shed_total', help: 'Sockets closed as the slowest when the send budget was spent', registers: [registry] }),
    notifications: new Counter({ name: 'gateway_notifications_total', help: 'Notifications stored by POST /v1/notifications', registers: [registry] }),
    notificationsDropped: new Counter({
      name: 'gateway_notifications_dropped_total',
      help: 'Notifications of POST /v1/notifications not stored: the user was over notificationsPerUserPerMinute',
      registers: [registry],
    }),
    kicks: new Counter({ name: 'gateway_kicked_sockets_total', help: 'Sockets closed with 4403 by a ban, removal or access change', labelNames: ['scope'], registers: [registry] }),
    subscriptions: new Gauge({ name: 'gateway_subscriptions', help: 'Live channel subscriptions of multiplexed connections (/v1/connect)', registers: [registry] }),
    admissionRunning: new Gauge({ name: 'gateway_admission_running', help: 'Subscribes and replay page reads running (SUBSCRIBE_CONCURRENCY bounds it)', registers: [registry] }),
    admissionWaiting: new Gauge({ name: 'gateway_admission_waiting', help: "Subscribes and replay page reads waiting for their environment's turn", registers: [registry] }),
    admissionRefused: new Counter({ name: 'gateway_admission_refused_total', help: "Subscribes and replay page reads refused: their environment's queue was full", registers: [registry] }),
    presenceEntries: new Gauge({ name: 'gateway_presence_entries', help: '(environment, channel, user) pairs this gateway holds in presence', registers: [registry] }),
  };
}
