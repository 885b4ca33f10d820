import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HandshakePacer } from '@rtm/edge';

/**
 * WebSocket upgrades taken per event-loop turn on one listener. Taking one (Fastify's routing and
 * hooks, ws's handshake, the 101 answer written, the link made) costs ~100 µs; a reconnect storm
 * (a gateway went away and its clients all come back) brings a thousand of them in one poll phase,
 * and taken as they come they held every other request of the gateway (another tenant's publish,
 * a ping) behind them for ~70 ms. Taken 16 a turn they interleave with the rest of the gateway's
 * I/O, and the gateway still takes them far faster than their sessions open (which the handshake
 * pacer paces in turn: libs/edge sessions/handshake-pacer.ts).
 */
export const UPGRADES_PER_TURN = 16;

type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Nothing listens to a waiting socket's errors once Node has handed it over: one that resets while it waits must not be an uncaught 'error'. */
const ignore = (): void => {};

/**
 * Puts the server's `upgrade` listeners (@fastify/websocket's) behind a pacer: an upgrade waits
 * for its turn, first come first taken, and one whose socket went away meanwhile is dropped.
 * Called once the listeners are registered.
 */
export function paceUpgrades(server: Server, perTurn = UPGRADES_PER_TURN): void {
  const listeners = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('upgrade');
  // an upgrade is taken synchronously: it holds its place for no longer than its own turn, so it
  // needs neither a bound on places nor a hold deadline
  const pacer = new HandshakePacer({ perTurn, inFlight: Number.MAX_SAFE_INTEGER });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', ignore);
    pacer.push(async () => {
      socket.off('error', ignore);
      if (socket.destroyed) return;
      for (const listener of listeners) listener.call(server, request, socket, head);
    });
  });
}
