import type { FastifyInstance } from 'fastify';
import { ERRORS } from '@rtm/errors';

type Doc = {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export const SECURITY_SCHEMES = {
  secretKey: { type: 'http', scheme: 'bearer', description: 'Secret key `sk_…` (control plane, server-side only).' },
  publishableKey: { type: 'http', scheme: 'bearer', description: 'Publishable key `pk_…` (only /v1/tokens/anonymous).' },
  publishableKeyHeader: { type: 'apiKey', in: 'header', name: 'x-service-key', description: 'Publishable key `pk_…`.' },
  userToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'User token minted by /v1/tokens.' },
  dashboardSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'dashboard_session',
    description:
      'Dashboard session cookie, set by POST /v1/dashboard/session (HttpOnly). Changes also need the `x-csrf-token` header.',
  },
} as const;

const errorRows = Object.entries(ERRORS)
  .map(([code, { status, message }]) => `| \`${code}\` | ${status} | ${message} |`)
  .join('\n');

/** Rules that hold for every route, including the choices the contract leaves open. */
const DESCRIPTION = `Control plane ({base_url}, secret key \`sk_…\`) and realtime edge ({realtime_url}, user JWT).

**Errors.** Every non-2xx response is \`{code, reason?}\` with the header \`x-service-error: <code>\`; clients
branch on \`code\`, not on the status alone. \`unavailable\` and \`rate_limited\` are safe to retry.

| code | status | meaning |
|---|---|---|
${errorRows}

**Bodies.** JSON only (\`application/json\`, any charset); any other content type is 415, malformed JSON 400, a body
over 256 KiB 413, unknown fields 400 (the reason names the field). A missing or empty body is "no body": routes whose
body is optional accept it. Requests Node's HTTP parser refuses (bad request line, oversized headers) are 400
\`invalid_request\`.

**Credentials.** The environment always comes from the credential, never from the URL. A secret key with an
\`Origin\` header is 403 \`origin_forbidden\`; a publishable key anywhere but \`POST /v1/tokens/anonymous\` (as
Bearer or \`x-service-key\`) is 403 \`forbidden\`, as is an API key on the realtime edge. User tokens are HS256 JWTs
(\`iss\`, \`aud: "realtime"\`, \`sub\`, \`env\`, \`anon\`, \`iat\`, \`exp\`, \`jti\`, optional \`ext\`, header \`kid\`);
any other algorithm, audience, issuer, environment or an expired token is 401. A revoked key stops working on every
gateway within seconds.

**Browsers (CORS).** Every realtime-edge route and \`POST /v1/tokens/anonymous\` answer preflight \`OPTIONS\` with 204
and send \`access-control-allow-origin: *\` (credentials are bearer tokens, never cookies) exposing
\`x-service-error\`; the rest of the control plane sends no CORS headers.

**Dashboard.** The routes under \`/v1/dashboard/\` (control plane) take the session cookie \`dashboard_session\` set by
\`POST /v1/dashboard/session\` instead of a key. Every POST, PUT, PATCH and DELETE there also needs the session's
\`x-csrf-token\` and, from a browser, an \`Origin\` of the dashboard itself (403 \`forbidden\` otherwise). A user sees
only their own organizations: another organization's id, or anything in it, is 404 \`not_found\` like an unknown one;
a role without the right is 403 \`forbidden\`. They send no CORS headers: the dashboard is served from the same origin.

**Availability.** Postgres or NATS unreachable at request time is 503 \`unavailable\`, never 500; so is a request
reaching a gateway that is shutting down (\`retry-after\` set).`;

/**
 * One OpenAPI 3.1 document for both hosts: each path item names the server(s) it is served on;
 * an operation served on both (publish, retract, history) lists both hosts' credentials.
 */
export function mergeOpenApi(control: Doc, realtime: Doc, extra: Partial<Doc> = {}): Doc {
  const controlServer = { url: '{base_url}', description: 'Control plane (secret key)', variables: { base_url: { default: 'http://localhost:8080' } } };
  const realtimeServer = { url: '{realtime_url}', description: 'Realtime edge (user token)', variables: { realtime_url: { default: 'http://localhost:8081' } } };
  const paths: Record<string, Record<string, unknown>> = {};
  const hosts = new Map<string, Set<string>>();
  for (const [doc, host] of [
    [control, 'control'],
    [realtime, 'realtime'],
  ] as const) {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const target = (paths[path] ??= {});
      for (const [method, operation] of Object.entries(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        const existing = target[method] as { security?: unknown[] } | undefined;
        const op = operation as { security?: unknown[] };
        target[method] = existing
          ? { ...existing, security: [...(existing.security ?? []), ...(op.security ?? [])] }
          : operation;
      }
      (hosts.get(path) ?? hosts.set(path, new Set()).get(path)!).add(host);
    }
  }
  for (const [path, set] of hosts) {
    paths[path]!.servers = [...set].map((h) => (h === 'control' ? controlServer : realtimeServer));
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Realtime messaging service',
      version: '1.0.0',
      description: DESCRIPTION,
    },
    servers: [controlServer, realtimeServer],
    paths: sortedPaths,
    ...extra,
    components: {
      ...((control.components as object) ?? {}),
      ...((realtime.components as object) ?? {}),
      ...((extra.components as object) ?? {}),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The merged document of two ready apps. */
export function documentOf(control: FastifyInstance, realtime: FastifyInstance, extra?: Partial<Doc>): Doc {
  return mergeOpenApi(control.swagger() as Doc, realtime.swagger() as Doc, extra);
}
