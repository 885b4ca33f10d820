import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ServiceError, isServiceError, type ErrorCode } from '@rtm/errors';
import { isConnectionError } from '@rtm/db';

/** Sends the error envelope (docs/interface.md): `{code, reason?}` and `x-service-error: code`. */
export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  reply.header('x-service-error', error.code);
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  return reply.code(error.status).type('application/json').send(error.toJSON());
}

// fastify's own errors, by code, and what the caller sees instead
const FASTIFY_ERRORS: Record<string, [ErrorCode, string | undefined]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'the body must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'content-length does not match the body'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'the request body is over 256 KiB'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_request', 'the JSON body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_request', 'malformed JSON'],
  FST_ERR_VALIDATION: ['invalid_request', undefined],
  FST_ERR_BAD_URL: ['invalid_request', 'the URL is not valid percent-encoded UTF-8'],
  FST_ERR_MAX_PARAM_LENGTH: ['invalid_request', 'a path parameter is too long'],
  FST_ERR_ASYNC_CONSTRAINT: ['invalid_request', 'the request does not match the route'],
};

/**
 * Fastify's `frameworkErrors`: refusals it makes before routing (bad percent-encoding, an
 * over-long parameter) get the envelope like everything else.
 */
export function frameworkErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const serviceError = toServiceError(error);
  // route hooks do not run for these: the refusal line is written here
  logRefusal(request, serviceError.status, serviceError.code);
  sendError(reply, serviceError);
}

// an invitation token in a path is a credential until it is used: logged as `…`
const TOKEN_IN_PATH = /^(\/v1\/dashboard\/invitations\/)[^/]+/;

/** One line per refusal, never a stack; the path without its query string (it may carry a token). */
export function logRefusal(request: FastifyRequest, status: number, code: unknown): void {
  const line = { method: request.method, path: request.url.split('?')[0]!.replace(TOKEN_IN_PATH, '$1…'), status, code };
  if (status === 429 || status === 404) request.log.debug(line, 'refused');
  else request.log.info(line, 'refused');
}

// NatsError codes that mean "no bus right now" (nats.js ErrorCode values)
const BUS_DOWN = new Set(['CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'CONNECTION_TIMEOUT', 'DISCONNECT', 'TIMEOUT', '503']);

function isBusUnavailable(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown } | undefined;
  return e?.name === 'NatsError' && typeof e.code === 'string' && BUS_DOWN.has(e.code);
}

/** Turns anything thrown by a route, hook or parser into a ServiceError. */
export function toServiceError(error: unknown): ServiceError {
  if (isServiceError(error)) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0];
    const where = error.validationContext ?? 'request';
    const path = issue?.instancePath ? issue.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
    const message = issue?.message ?? 'invalid';
    return new ServiceError('invalid_request', `${where}${path ? `.${path}` : ''}: ${message}`);
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.code && fastifyError.code in FASTIFY_ERRORS) {
    const [code, reason] = FASTIFY_ERRORS[fastifyError.code]!;
    return new ServiceError(code, reason ?? fastifyError.message);
  }
  // Postgres or NATS down, or the connection broke: transient, the caller may retry (not a bug)
  if (isConnectionError(error)) return new ServiceError('unavailable', 'the database is not reachable', { cause: error });
  if (isBusUnavailable(error)) return new ServiceError('unavailable', 'the message bus is not reachable', { cause: error });
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return new ServiceError('invalid_request', 'malformed JSON');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new ServiceError('payload_too_large');
    if (status === 415) return new ServiceError('unsupported_media_type');
    if (status === 404) return new ServiceError('not_found');
    return new ServiceError('invalid_request', fastifyError.message);
  }
  return new ServiceError('internal', undefined, { cause: error });
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const serviceError = toServiceError(error);
    if (serviceError.code === 'internal') {
      request.log.error({ err: error, reqId: request.id }, 'internal error');
      return sendError(reply, new ServiceError('internal', `request ${request.id}`));
    }
    if (serviceError.code === 'unavailable') request.log.warn({ err: error }, 'unavailable');
    return sendError(reply, serviceError);
  });
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, new ServiceError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
}

// what a status without our envelope becomes (a refusal some plugin answered by itself)
const STATUS_CODES: Record<number, ErrorCode> = {
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * The last line of defence: an error status sent without `x-service-error` (e.g. the 404 that
 * @fastify/websocket answers to a plain GET on a socket route) is rewritten into the envelope.
 */
export function installEnvelopeGuard(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    if (status < 400 || reply.hasHeader('x-service-error')) return payload;
    const code = STATUS_CODES[status] ?? (status >= 500 ? 'internal' : 'invalid_request');
    const reason =
      status === 404 && request.routeOptions.url !== undefined ? `${request.method} ${request.routeOptions.url} takes a WebSocket upgrade` : undefined;
    const error = new ServiceError(code, reason);
    reply.code(error.status).header('x-service-error', code).type('application/json');
    return JSON.stringify(error.toJSON());
  });
}

/**
 * A WebSocket handshake `ws` refuses after routing (bad Sec-WebSocket-Key or -Version, a
 * missing Upgrade header): 400 invalid_request in the envelope instead of ws's text/html.
 */
export function wsClientErrorHandler(error: Error, socket: Duplex, _request: IncomingMessage): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(new ServiceError('invalid_request', `WebSocket handshake: ${error.message}`).toJSON());
  const version = /Version/.test(error.message) ? 'Sec-WebSocket-Version: 13, 8\r\n' : '';
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nx-service-error: invalid_request\r\n${version}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Errors Node's HTTP parser raises before fastify sees a request (a malformed request line,
 * headers over Node's limit, a request that never finished): still the envelope, never
 * fastify's default body. The error table (docs/interface.md) has no 408 or 431, so all are 400 invalid_request.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const reason =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'the request headers are too large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'the request was not received in time'
        : 'malformed HTTP request';
  const body = JSON.stringify(new ServiceError('invalid_request', reason).toJSON());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nx-service-error: invalid_request\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
