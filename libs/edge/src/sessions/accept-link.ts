import type { FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { ZodApp } from '../zod-app.ts';
import type { EdgeDeps } from '../edge-deps.ts';
import { SOCKET_CLOSE } from '../sockets/close-codes.ts';
import type { GatewayWebSocket } from '../sockets/gateway-web-socket.ts';
import { SocketLink, type LinkGroup, type LinkOptions, type LinkSession } from './socket-link.ts';

/**
 * For the sockets of one listener route: wraps each accepted socket in a SocketLink (the limits
 * every endpoint shares, counted in the gateway's send budget), counts it in
 * `gateway_open_sockets{kind}`, and closes every open one with 4503 when the gateway drains
 * (reconnect elsewhere, resume with `since`).
 *
 * Nothing of the upgrade request outlives the upgrade: @fastify/websocket leaves an 'error'
 * listener on the socket that holds the Fastify request and reply (with the request's child
 * logger), and its stand-in ServerResponse stays attached to the TCP socket; both are let go here
 * (~2.5 KB per socket). The link's own 'error' listener does what that one did (sessions/socket-link.ts).
 */
/** What accepting a socket reads: the socket limits, the open-socket gauge and the send budget. */
export type AcceptDeps = Pick<EdgeDeps, 'config' | 'sessionMetrics' | 'sessions'>;

export function linkAcceptor(
  app: ZodApp,
  deps: AcceptDeps,
  kind: 'channel' | 'inbox' | 'logs' | 'connect',
): (socket: WebSocket, request: FastifyRequest) => SocketLink {
  const live = new Set<SocketLink>();
  const open = deps.sessionMetrics.sockets.labels(kind);
  const { budget } = deps.sessions;
  const { config } = deps;
  // one options object for every socket of the route
  const options: LinkOptions = {
    bufferLimit: config.SOCKET_BUFFER_LIMIT,
    heartbeatMs: config.HEARTBEAT_MS,
    handshakeMs: config.SOCKET_HANDSHAKE_MS,
    closeGraceMs: config.SOCKET_CLOSE_GRACE_MS,
    framesPerSecond: kind === 'connect' ? config.CONNECT_FRAMES_PER_SECOND : config.SOCKET_FRAMES_PER_SECOND,
    bytesPerSecond: config.SOCKET_BYTES_PER_SECOND,
  };
  const group: LinkGroup = {
    closed(link) {
      live.delete(link);
      open.dec();
    },
  };
  app.addHook('preClose', async () => {
    for (const link of live) link.closeWith(SOCKET_CLOSE.draining);
  });
  return (socket, request) => {
    const raw = request.raw.socket as Socket | undefined;
    socket.removeAllListeners('error');
    const response = (raw as { _httpMessage?: ServerResponse | null } | undefined)?._httpMessage;
    if (raw && response) response.detachSocket(raw);
    if (raw) compactListeners(raw);
    const link = new SocketLink(socket as GatewayWebSocket, raw, options, budget);
    link.group = group;
    live.add(link);
    open.inc();
    return link;
  };
}

/**
 * A TCP socket's 'close' and 'end' listener lists, copied at their size. Node's HTTP server took
 * its own listeners off at the upgrade, but a list that once held three keeps room for nineteen
 * (~150 bytes each, for as long as the WebSocket lives). The lists are EventEmitter's `_events`
 * entries, replaced in place by an equal array (same listeners, same order); taking them off and
 * on again through the public calls would instead grow `_events` itself, a dictionary that keeps
 * the deleted slots. Nothing is done if the internals are not as expected.
 */
function compactListeners(socket: Socket): void {
  const events = (socket as unknown as { _events?: Record<string, unknown> })._events;
  if (!events) return;
  for (const event of ['close', 'end']) {
    const listeners = events[event];
    if (Array.isArray(listeners)) events[event] = listeners.slice();
  }
}

/** What a socket route keeps per accepted socket: fed the socket's frames and close, opened once. */
export interface SocketSession extends LinkSession {
  open(request: FastifyRequest): Promise<void>;
}

/**
 * A WebSocket route whose sockets are each one SocketSession over a SocketLink (see linkAcceptor):
 * the socket's frames and close go to the session, then it opens. WebSockets are outside OpenAPI
 * (docs/protocol.md, docs/channels.md).
 */
export function mountSocketRoute(app: ZodApp, deps: AcceptDeps, kind: 'channel' | 'connect', path: string, create: (link: SocketLink) => SocketSession): void {
  const accept = linkAcceptor(app, deps, kind);
  app.get(path, { websocket: true, schema: { hide: true } }, (socket, request) => {
    const fastifyRequest = request as unknown as FastifyRequest;
    const link = accept(socket, fastifyRequest);
    const session = create(link);
    link.takeFrames(session);
    // a few handshakes per turn: a burst of upgrades must not hold every other request behind it
    deps.sessions.handshakes.push(async () => {
      if (!link.closed) await session.open(fastifyRequest);
    });
  });
}
