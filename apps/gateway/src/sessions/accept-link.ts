import type { FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { RawData, WebSocket } from 'ws';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { SOCKET_CLOSE } from '../sockets/close-codes.ts';
import { SocketLink } from './socket-link.ts';

/**
 * For the sockets of one listener route: wraps each accepted socket in a SocketLink (the limits
 * every endpoint shares, counted in the gateway's send budget), counts it in
 * `gateway_open_sockets{kind}`, and closes every open one with 4503 when the gateway drains
 * (reconnect elsewhere, resume with `since`).
 */
export function linkAcceptor(
  app: ZodApp,
  deps: GatewayDeps,
  kind: 'channel' | 'inbox' | 'logs' | 'connect',
): (socket: WebSocket, request: FastifyRequest) => SocketLink {
  const live = new Set<SocketLink>();
  const open = deps.sessionMetrics.sockets.labels(kind);
  const { budget } = deps.sessions;
  const { config } = deps;
  app.addHook('preClose', async () => {
    for (const link of live) link.closeWith(SOCKET_CLOSE.draining);
  });
  return (socket, request) => {
    const link = new SocketLink(
      socket,
      request.raw.socket as Socket | undefined,
      {
        bufferLimit: config.SOCKET_BUFFER_LIMIT,
        heartbeatMs: config.HEARTBEAT_MS,
        handshakeMs: config.SOCKET_HANDSHAKE_MS,
        closeGraceMs: config.SOCKET_CLOSE_GRACE_MS,
        framesPerSecond: kind === 'connect' ? config.CONNECT_FRAMES_PER_SECOND : config.SOCKET_FRAMES_PER_SECOND,
        bytesPerSecond: config.SOCKET_BYTES_PER_SECOND,
      },
      budget,
    );
    live.add(link);
    open.inc();
    socket.once('close', () => {
      live.delete(link);
      open.dec();
    });
    return link;
  };
}

/** What a socket route keeps per accepted socket: fed the socket's frames and close, opened once. */
export interface SocketSession {
  onMessage(data: RawData, isBinary: boolean): void;
  onClose(code: number): void;
  open(request: FastifyRequest): Promise<void>;
}

/**
 * A WebSocket route whose sockets are each one SocketSession over a SocketLink (see linkAcceptor):
 * the socket's frames and close go to the session, then it opens. WebSockets are outside OpenAPI
 * (docs/protocol.md, docs/channels.md).
 */
export function mountSocketRoute(
  app: ZodApp,
  deps: GatewayDeps,
  kind: 'channel' | 'connect',
  path: string,
  create: (link: SocketLink) => SocketSession,
): void {
  const accept = linkAcceptor(app, deps, kind);
  app.get(path, { websocket: true, schema: { hide: true } }, (socket, request) => {
    const fastifyRequest = request as unknown as FastifyRequest;
    const session = create(accept(socket, fastifyRequest));
    socket.on('message', (data, isBinary) => session.onMessage(data, isBinary));
    socket.once('close', (code) => session.onClose(code));
    void session.open(fastifyRequest);
  });
}
