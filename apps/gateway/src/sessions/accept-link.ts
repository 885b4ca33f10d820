import type { WebSocket } from 'ws';
import { CLOSE } from '@rtm/errors';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { SocketLink } from './socket-link.ts';
import { sessionMetricsOf } from './session-metrics.ts';

/**
 * For the inbox and logs sockets of one listener: wraps each accepted socket in a SocketLink,
 * counts it in `gateway_open_sockets{kind}`, and closes every open one with 4503 when the gateway
 * drains (reconnect elsewhere, resume with `since`).
 */
export function linkAcceptor(app: ZodApp, deps: GatewayDeps, kind: 'inbox' | 'logs'): (socket: WebSocket) => SocketLink {
  const live = new Set<SocketLink>();
  const open = sessionMetricsOf(deps.metrics).sockets.labels(kind);
  app.addHook('preClose', async () => {
    for (const link of live) link.close(CLOSE.unavailable, 'gateway draining');
  });
  return (socket) => {
    const link = new SocketLink(socket, {
      bufferLimit: deps.config.SOCKET_BUFFER_LIMIT,
      heartbeatMs: deps.config.HEARTBEAT_MS,
    });
    live.add(link);
    open.inc();
    socket.once('close', () => {
      live.delete(link);
      open.dec();
    });
    return link;
  };
}
