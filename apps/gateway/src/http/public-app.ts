import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { isUtf8 } from 'node:buffer';
import fastifySwagger from '@fastify/swagger';
import fastifyWebsocket from '@fastify/websocket';
import { jsonSchemaTransformObject, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Histogram, type Registry } from 'prom-client';
import { histogramSpec } from '@rtm/ops';
import type { Logger } from '@rtm/ops';
import { ServiceError } from '@rtm/errors';
import { JsonTextError, checkJsonText } from '@rtm/schemas';
import { clientErrorHandler, frameworkErrorHandler, installEnvelopeGuard, installErrorHandling, logRefusal, wsClientErrorHandler } from './error-handler.ts';
import { limitConnectionsPerClient } from './connection-limit.ts';
import { paceUpgrades } from './upgrade-pacing.ts';
import { trustProxyOption, type TrustProxy } from './trust-proxy.ts';
import { SECURITY_SCHEMES, openApiRouteTransform } from '@rtm/api-docs';
import { installCors } from './cors.ts';
import { compiledSerializerCompiler } from './response-serializer.ts';
import { lazyChildLoggerFactory } from './lazy-request-logger.ts';
import { installAccessLog } from './access-log.ts';
import { installCompression } from './compression.ts';
import { GatewayWebSocket, MAX_FRAME_BYTES, type Host, type ZodApp } from '@rtm/edge';

export const BODY_LIMIT = 256 * 1024;
export { MAX_FRAME_BYTES };
export type { Host, ZodApp };

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The JSON body as text, as it arrived (valid UTF-8, checked, parsed into `body`); '' when
     * there is none. Routes that keep a value's exact text (a publish's `content`) slice it from here.
     */
    bodyText: string;
  }
}

/** The registry's request histogram, registered by whichever listener is built first. */
function httpMetric(registry: Registry): Histogram<'host' | 'route' | 'status'> {
  const existing = registry.getSingleMetric('http_request_duration_seconds');
  if (existing) return existing as Histogram<'host' | 'route' | 'status'>;
  return new Histogram({
    ...histogramSpec('http_request_duration_seconds'),
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
}

/**
 * One public listener: zod validation, the error envelope for everything (unknown routes,
 * parser errors, oversized bodies), JSON-only bodies, WebSockets and OpenAPI collection.
 */
export interface ListenerOptions {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Per client address as TRUST_PROXY resolves it (connection-limit.ts); 0: no limit. */
  maxConnectionsPerIp: number;
  trustProxy: TrustProxy;
  /** One line per request and per socket upgrade (ACCESS_LOG, access-log.ts). */
  accessLog: boolean;
}

/** Path parameters are checked by their schemas (ids up to 128 chars, percent-encoded up to 3×). */
const MAX_PARAM_LENGTH = 1024;

export async function createPublicApp(host: Host, log: Logger, registry: Registry, options: ListenerOptions): Promise<ZodApp> {
  const appLog = log.child({ host });
  const app = Fastify({
    loggerInstance: appLog as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // `true` is one hop (the right-most X-Forwarded-For entry), a count that many (trust-proxy.ts)
    trustProxy: trustProxyOption(options.trustProxy),
    // Node checks header and request deadlines on this interval: its default (30 s) would let a
    // slow client hold a connection well past HTTP_HEADERS_TIMEOUT_MS
    http: {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs),
    },
    requestTimeout: options.requestTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is made when a request logs, not for every request (lazy-request-logger.ts)
    childLoggerFactory: lazyChildLoggerFactory,
    requestIdHeader: 'x-request-id',
    // fastify's own 503 while closing has no envelope: the hook below answers it instead
    return503OnClosing: false,
    forceCloseConnections: true,
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  // first: its onRequest hook sees every request, also those the hooks below refuse; before the
  // WebSocket plugin and the routes, whose socket handlers it wraps as they are added
  if (options.accessLog) installAccessLog(app, appLog);

  // fastify hands a missing body to the validator as null; routes declare optional bodies with
  // `.optional()`, so a missing body is validated as undefined
  app.setValidatorCompiler((route) => {
    const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
    return route.httpPart === 'body' ? (data: unknown) => validate(data === null ? undefined : data) : validate;
  });
  app.setSerializerCompiler(compiledSerializerCompiler);
  installErrorHandling(app);
  installEnvelopeGuard(app);

  // JSON only: text/plain (a fastify default) is refused with 415 like any other type; an empty
  // body with a JSON content type is read as "no body", so optional bodies may be left out.
  app.removeContentTypeParser('text/plain');
  // Bodies must be valid UTF-8 (never silently replaced) and pass the JSON text rules (nesting
  // depth, no NUL, no lone surrogate: libs/schemas json-text.ts) before they are parsed.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('bodyText', '');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(new ServiceError('invalid_request', 'the body is not valid UTF-8'), undefined);
    // a leading byte order mark is dropped (the JSON parser drops it too), so `bodyText` is the
    // very text that was parsed and the spans found in it match the parsed body
    const decoded = bytes.toString('utf8');
    const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
    if (text.trim() === '') return done(null, undefined);
    try {
      checkJsonText(text);
    } catch (error) {
      if (error instanceof JsonTextError) return done(new ServiceError('invalid_request', `body: ${error.message}`), undefined);
      throw error;
    }
    request.bodyText = text;
    parseJson(request, text, done);
  });

  installCors(app, host);

  // draining: requests still arriving on open connections are told to go elsewhere, in the envelope
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new ServiceError('unavailable', 'this gateway is shutting down; retry', { retryAfter: 1 });
  });

  const metric = httpMetric(registry);
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 400 && reply.statusCode !== 500) logRefusal(request, reply.statusCode, reply.getHeader('x-service-error'));
    metric.observe({ host, route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  // before the WebSocket plugin and every route: it hooks routes as they are added
  await installCompression(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Realtime messaging service', version: '1.0.0' },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: openApiRouteTransform,
    // registers zod schemas with a `.meta({id})` as components, so the `$ref`s resolve
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifyWebsocket, {
    // a frame over the largest legal one is refused from its header (4400), never read into memory
    // (ws's typings want the module's static helpers on the class; only the constructor is used)
    // ws keeps no set of its sockets (clientTracking) and does not answer pings itself (autoPong):
    // each costs a closure per socket; the links track their sockets (libs/edge sessions/accept-link.ts,
    // which also drains them) and answer pings once admitted (libs/edge sessions/socket-link.ts)
    options: { maxPayload: MAX_FRAME_BYTES, WebSocket: GatewayWebSocket as never, clientTracking: false, autoPong: false },
    // ws has already closed the socket with the matching code (4400 for protocol refusals, see
    // GatewayWebSocket) or it is gone; a client's broken frame is not the gateway's error to log loudly
    errorHandler(error, socket, request) {
      request.log.debug({ reason: error.message }, 'socket closed on a client protocol error');
      // anything else (a handler that threw) must not leave the socket open and unattended
      if (socket.readyState === socket.OPEN) socket.terminate();
    },
    // draining: every socket is told 4503 (reconnect elsewhere, resume with `since`), not a bare
    // 1005, by its route's link acceptor, which tracks them (ws does not: clientTracking is off)
    preClose(done) {
      this.websocketServer.close(() => done());
    },
  });
  // after the WebSocket plugin's hooks: an upgrade refused here is then closed by it, not left open
  limitConnectionsPerClient(app, options.maxConnectionsPerIp, options.trustProxy, appLog);
  // a handshake ws itself refuses (bad Sec-WebSocket-Key/Version, Upgrade header): the envelope
  app.websocketServer.on('wsClientError', wsClientErrorHandler);
  // a burst of upgrades is taken a few per turn, not all in the poll phase that read them
  paceUpgrades(app.server);
  return app;
}
