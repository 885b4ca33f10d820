/**
 * The access log (ACCESS_LOG=on): one structured `info` line per answered request, and one per
 * WebSocket upgrade (status 101, when the socket is handed to its route; frames are never logged).
 *
 *   {"level":30,…,"host":"control","msg":"request","method":"GET","route":"/v1/channels/:channelId",
 *    "status":200,"ms":1.8,"environmentId":"env_…","reqId":"…"}
 *
 * The line is written when the response ends, also when the client ends it first (`aborted`: an
 * event stream it closed, a request it gave up on).
 * The route is the route's pattern, never the URL as sent: ids, query strings and the tokens
 * some carry (`?token=` on sockets and the event stream, invitation links) stay out of the log.
 * A request that matched no route is logged with route `(none)`.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Logger } from '@rtm/ops';

export const NO_ROUTE = '(none)';

export interface AccessLine {
  method: string;
  route: string;
  status: number;
  /** Milliseconds from the request's arrival to the end of its answer (the upgrade, for a socket). */
  ms: number;
  environmentId?: string;
  reqId: string;
  /** The client closed the connection before the answer was complete. */
  aborted?: true;
}

/** What one request's line says. */
export function accessLine(request: FastifyRequest, status: number, elapsedMs: number): AccessLine {
  const line: AccessLine = {
    method: request.method,
    route: request.routeOptions.url ?? NO_ROUTE,
    status,
    ms: Math.round(elapsedMs * 10) / 10,
    reqId: String(request.id),
  };
  // `auth` is null until a route's hook authenticates (and for public routes)
  const environmentId = request.auth?.environmentId;
  if (environmentId !== undefined) line.environmentId = environmentId;
  return line;
}

type SocketHandler = (this: unknown, socket: unknown, request: FastifyRequest) => unknown;

/**
 * Installs the access log on one listener: before the WebSocket plugin is registered (its socket
 * handlers are wrapped here before the plugin takes them), and before any route.
 */
export function installAccessLog(app: FastifyInstance, log: Logger): void {
  const out = log as unknown as FastifyBaseLogger;
  // requests handed to a socket route's handler: their upgrade was logged there (101)
  const upgraded = new WeakSet<FastifyRequest>();
  // when each socket route's request arrived (its upgrade answers no reply to time)
  const arrived = new WeakMap<FastifyRequest, number>();
  // at the response's end rather than in onResponse, which fastify skips for an answer it did not
  // send: the event stream (written on the hijacked reply) closed by its client is logged too
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', () => {
      if (upgraded.has(request)) return;
      const line = accessLine(request, reply.raw.statusCode, reply.elapsedTime);
      // the client went before the answer was complete (a stream it closed, a request it gave up)
      if (!reply.raw.writableFinished) line.aborted = true;
      out.info(line, 'request');
    });
    done();
  });
  const stamp = async (request: FastifyRequest) => {
    arrived.set(request, performance.now());
  };
  app.addHook('onRoute', (route: RouteOptions & { websocket?: boolean }) => {
    if (!route.websocket) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    route.onRequest = [stamp, ...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest])];
    const handler = route.handler as unknown as SocketHandler;
    // called once the upgrade is done and the socket is open: the 101 is behind it
    route.handler = function (this: unknown, socket: unknown, request: FastifyRequest) {
      upgraded.add(request);
      const since = arrived.get(request);
      out.info(accessLine(request, 101, since === undefined ? 0 : performance.now() - since), 'request');
      return handler.call(this, socket, request);
    } as unknown as RouteOptions['handler'];
  });
}
