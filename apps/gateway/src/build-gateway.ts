import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createPublicApp, type ZodApp } from './http/public-app.ts';
import { documentOf } from '@rtm/api-docs';
import { referenceRoutes } from './docs-ui/docs-ui.ts';
import { CONTROL_ROUTES, REALTIME_ROUTES } from './routes/index.ts';
import type { GatewayDeps } from './deps.ts';

export interface Gateway {
  control: ZodApp;
  realtime: ZodApp;
  openapi: () => Record<string, unknown>;
}

/** Builds both public listeners without listening; `main.ts` binds them. */
export async function buildGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config } = deps;
  const listener = {
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerIp: config.MAX_CONNECTIONS_PER_IP,
    trustProxy: config.TRUST_PROXY,
    // unset: on in production only, so `npm start` stays readable
    accessLog: (config.ACCESS_LOG ?? (config.NODE_ENV === 'production' ? 'on' : 'off')) === 'on',
  };
  const control = await createPublicApp('control', deps.log, deps.metrics, listener);
  const realtime = await createPublicApp('realtime', deps.log, deps.metrics, listener);
  // the ports really listened on (a configured 0 picks a free one), for URLs that point at a listener
  for (const [app, endpoint] of [
    [control, deps.controlEndpoint],
    [realtime, deps.realtimeEndpoint],
  ] as const) {
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (typeof address === 'object' && address) endpoint.listening(address.port);
    });
  }
  let doc: Record<string, unknown> | undefined;
  const openapi = () => (doc ??= documentOf(control, realtime));

  for (const [app, groups] of [
    [control, CONTROL_ROUTES],
    [realtime, REALTIME_ROUTES],
  ] as const) {
    const host = app === control ? 'control' : 'realtime';
    // every answered request made with an environment's credential, by host (docs/stats.md);
    // a socket's upgrade is a connection, counted as one, not a request
    const counter = host === 'control' ? 'api_requests_control' : 'api_requests_realtime';
    app.addHook('onResponse', async (request) => {
      const environmentId = request.auth?.environmentId;
      if (environmentId !== undefined && !request.ws) deps.usage.add(environmentId, counter);
    });
    await referenceRoutes(app, host, deps, openapi);
    deps.limits.install(app, host);
    if (app === control) deps.dashboard.install(app);
    for (const group of groups) {
      await app.register(async (scope: FastifyInstance) => group(scope.withTypeProvider<ZodTypeProvider>(), deps));
    }
    await app.ready();
  }
  return { control, realtime, openapi };
}
