import { Events, type NatsConnection } from 'nats';

const disconnectListeners = new WeakMap<NatsConnection, Set<() => void>>();

/**
 * Calls `listener` the next times `nc` loses its server (a `disconnect` status: the server died or
 * the link broke; the client then reconnects to another one). A request whose reply was coming
 * back through that server is lost with it, so a caller waiting for one can stop at once instead
 * of at its time-out. Returns the function that removes the listener.
 */
export function onDisconnect(nc: NatsConnection, listener: () => void): () => void {
  let listeners = disconnectListeners.get(nc);
  if (!listeners) {
    const set = new Set<() => void>();
    listeners = set;
    disconnectListeners.set(nc, set);
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === Events.Disconnect) for (const call of [...set]) call();
      }
    })();
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
