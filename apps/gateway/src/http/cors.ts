import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Host } from './public-app.ts';

/** The one control-plane route a browser may call (with a publishable key). */
const BROWSER_CONTROL_ROUTE = '/v1/tokens/anonymous';
const ALLOW_HEADERS = 'authorization, content-type, x-service-key, x-request-id';
const EXPOSE_HEADERS = 'x-service-error, retry-after, x-request-id';
const ALLOW_METHODS = 'GET, POST, PUT, DELETE';

/**
 * CORS for what browsers may call: every route of the realtime edge (user tokens) and
 * `POST /v1/tokens/anonymous` (publishable keys). Credentials are bearer tokens, never cookies,
 * so any origin may be allowed (`*`); which origins may use a publishable key is decided by the
 * environment's allowed origins at the request itself, not here. The rest of the control plane
 * sends no CORS headers (and refuses a secret key with an Origin header), so a browser can
 * neither preflight nor read it.
 */
export function installCors(app: FastifyInstance, host: Host): void {
  const forBrowsers = (url: string) => host === 'realtime' || url.split('?')[0] === BROWSER_CONTROL_ROUTE;

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.headers.origin !== undefined && forBrowsers(request.url)) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    }
    return payload;
  });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', ALLOW_METHODS)
      .header('access-control-allow-headers', ALLOW_HEADERS)
      .header('access-control-max-age', '600')
      .send();
  const options = { schema: { hide: true } };
  if (host === 'realtime') app.options('/*', options, preflight);
  else app.options(BROWSER_CONTROL_ROUTE, options, preflight);
}
