/**
 * Connections per environment for the usage meter (docs/stats.md, `connections_peak` and
 * `connection_seconds`): the sockets the environment's socket quota counts (channel sockets,
 * `/v1/connect` connections over a WebSocket or an event stream, inbox and logs sockets), from
 * the moment each is live until it closes.
 */
import type { Usage } from '@rtm/usage';
import type { SocketEvents, SocketHandle } from './socket-events.ts';

export function countConnections(events: SocketEvents, usage: Usage): void {
  const opened = (handle: SocketHandle) => usage.opened(handle.environmentId);
  const closed = (handle: SocketHandle) => usage.closed(handle.environmentId);
  for (const kind of ['channel', 'connect', 'inbox', 'logs'] as const) {
    events.on(`${kind}.open`, opened);
    events.on(`${kind}.close`, closed);
  }
}
