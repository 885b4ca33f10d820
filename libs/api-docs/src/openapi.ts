import { webhookDocs } from './webhook-docs.ts';
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERRORS } from '@rtm/errors';

type Doc = {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
};

type Operation = {
  operationId?: string;
  requestBody?: { required?: boolean };
  responses?: Record<string, Response>;
  security?: unknown[];
  [key: string]: unknown;
};

type Response = {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
};

/** Where both hosts serve the AsyncAPI document of the socket (a path: the same on either host). */
export const ASYNCAPI_PATH = '/asyncapi.json';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Set by the route transform on an operation whose body schema accepts "no body"; the merge turns
 * it into `requestBody.required: false` (@fastify/swagger writes `required: true` for every body)
 * and removes it.
 */
const OPTIONAL_BODY = 'x-optional-body';

/**
 * The per-route OpenAPI transform of both listeners: zod schemas to JSON Schema, and a note of
 * bodies that may be left out (`body: X.optional()`), so the document does not demand one.
 */
export function openApiRouteTransform(input: Parameters<typeof jsonSchemaTransform>[0]): ReturnType<typeof jsonSchemaTransform> {
  const result = jsonSchemaTransform(input);
  const body = (input.schema as { body?: unknown } | undefined)?.body;
  const schema = result.schema as Record<string, unknown> | undefined;
  if (schema && !schema.hide && body instanceof z.ZodType && body.safeParse(undefined).success) schema[OPTIONAL_BODY] = true;
  return result;
}

/** Every operation tag, in the order a reader meets them. */
export const TAGS = [
  {
    name: 'tokens',
    description:
      'User tokens for the realtime edge: minted by a tenant backend (secret key) or anonymously (publishable key), and checked by their holder; their revocation and signing keys.',
  },
  { name: 'messages', description: "Publishing, retracting and reading the history of a channel's messages." },
  { name: 'membership', description: 'Channel access (`open` or `members`), members and their roles, and the live roster.' },
  { name: 'erasure', description: "Erasing a user's messages and deleting channels (resumable jobs on the dispatchers)." },
  { name: 'bans', description: 'Bans from one channel or from the whole environment.' },
  { name: 'notifications', description: 'Per-user inbox notifications.' },
  { name: 'config', description: "The environment's deployed configuration: webhook URL, default channel access, limits." },
  { name: 'webhooks', description: 'The webhook signing secret and the delivery ledger.' },
  { name: 'webhook events', description: 'What the service POSTs to a webhook endpoint, one entry per event type.' },
  {
    name: 'webhook endpoints',
    description: 'Endpoints beside the default one, each with its own secret and filters; test events, recovery, the event types.',
  },
  { name: 'logs', description: 'Tokens for the live environment-logs socket.' },
  { name: 'stats', description: "The environment's usage by minute, hour, day or month." },
  {
    name: 'dashboard',
    description:
      'Session-authenticated management for people: sign-in, organizations and roles, projects, environments, API keys, allowed origins, the audit log.',
  },
];

const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 0 },
};

/** Error codes answered with `status`, as the description of that response. */
function errorResponseDescription(status: number): string {
  const codes = Object.entries(ERRORS)
    .filter(([, error]) => error.status === status)
    .map(([code]) => `\`${code}\``);
  return codes.length === 0 ? 'Error envelope' : `Error envelope; \`code\`: ${codes.join(', ')}`;
}

export const SECURITY_SCHEMES = {
  secretKey: { type: 'http', scheme: 'bearer', description: 'Secret key `sk_…` (control plane, server-side only).' },
  publishableKey: { type: 'http', scheme: 'bearer', description: 'Publishable key `pk_…` (only /v1/tokens/anonymous).' },
  publishableKeyHeader: { type: 'apiKey', in: 'header', name: 'x-service-key', description: 'Publishable key `pk_…`.' },
  userToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'User token minted by /v1/tokens.' },
  dashboardSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'dashboard_session',
    description: 'Dashboard session cookie, set by POST /v1/dashboard/session (HttpOnly). Changes also need the `x-csrf-token` header.',
  },
} as const;

const errorRows = Object.entries(ERRORS)
  .map(([code, { status, message }]) => `| \`${code}\` | ${status} | ${message} |`)
  .join('\n');

/** Rules that hold for every route, as docs/interface.md states them. */
const DESCRIPTION = `Control plane ({base_url}, secret key \`sk_…\`) and realtime edge ({realtime_url}, user JWT).

**Sockets.** The multiplexed socket \`GET /v1/connect\` of the realtime edge (one connection for many channels and
the inbox) is described by the AsyncAPI 3.0 document [${ASYNCAPI_PATH}](${ASYNCAPI_PATH}), served by both hosts.

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
Bearer or \`x-service-key\`) is 403 \`forbidden\`, as is an API key on the realtime edge. Minted user tokens are HS256
JWTs (\`iss\`, \`aud: "realtime"\`, \`sub\`, \`env\`, \`anon\`, \`iat\`, \`iat_ms\`, \`exp\`, \`jti\`, optional \`ext\`, optional
\`cap\` (capabilities, docs/permissions.md), header \`kid\`); tenant-signed tokens (RS256, ES256, EdDSA, with a key registered under \`/v1/token-keys\` or a JWKS URL) carry
\`iss\` = the environment id instead. Any other algorithm, audience, issuer, environment, an expired or revoked token
is 401 (revocation: \`POST /v1/tokens/revoke\`, \`DELETE /v1/users/{userId}/tokens\`; see docs/tokens.md). A revoked key
stops working on every gateway within seconds.

**Permissions.** On the realtime edge every channel operation is decided by one rule (docs/permissions.md): a ban
refuses everything (403 \`banned\`); then the token's capabilities (\`subscribe\` guards the sockets and their
\`since\` replay, \`publish\` publishing and retracting, \`history\` the history, \`presence\` the roster); then
access (the channel's own, else its namespace's, else the environment's default); then the namespace (anonymous
tokens, \`history: false\`); then the role (\`readonly\` does not publish, only a \`moderator\` retracts others'
messages, removes and bans). Refusals are 403 \`forbidden\` with a reason naming the rule.

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

/** The http(s) origins of both hosts as the document names them. */
export interface ServerOrigins {
  control: string;
  realtime: string;
}

/** What the document written by scripts/write-openapi.ts names: the default ports on localhost. */
export const DEFAULT_ORIGINS: ServerOrigins = { control: 'http://localhost:8080', realtime: 'http://localhost:8081' };

/**
 * Both hosts' server objects: a variable per host whose default is its origin, so a reader or a
 * generated client can point the same document at another deployment.
 */
function serversOf(origins: ServerOrigins) {
  return {
    control: { url: '{base_url}', description: 'Control plane (secret key)', variables: { base_url: { default: origins.control } } },
    realtime: { url: '{realtime_url}', description: 'Realtime edge (user token)', variables: { realtime_url: { default: origins.realtime } } },
  };
}

/**
 * The merged document with both hosts' servers (the document's and every path item's) at
 * `origins`: what `/openapi.json` serves for a deployment (CONTROL_PUBLIC_URL,
 * REALTIME_PUBLIC_URL, else the request's host). Shares everything else with `doc`.
 */
export function withServers(doc: Doc, origins: ServerOrigins): Doc {
  const servers = serversOf(origins);
  const swap = (list: unknown) =>
    Array.isArray(list)
      ? list.map((server: { url?: string }) => (server.url === '{base_url}' ? servers.control : server.url === '{realtime_url}' ? servers.realtime : server))
      : list;
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).map(([path, item]) => [path, { ...item, servers: swap(item.servers) }]));
  return { ...doc, servers: swap(doc.servers), paths };
}

/**
 * One OpenAPI 3.1 document for both hosts: each path item names the server(s) it is served on;
 * an operation served on both (publish, retract, history, roster) lists both hosts' credentials
 * and must carry the same operationId on both. Fit for code generators: every operation has an
 * operationId and declared tags, optional bodies are not `required`, every control-plane
 * operation documents its 429, and components no operation reaches are left out (the zod
 * provider registers an input and an output form of every named schema).
 */
export function mergeOpenApi(control: Doc, realtime: Doc, extra: Partial<Doc> = {}): Doc {
  const { control: controlServer, realtime: realtimeServer } = serversOf(DEFAULT_ORIGINS);
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
        const existing = target[method] as Operation | undefined;
        const op = normaliseOperation(operation as Operation, host);
        if (existing && existing.operationId !== op.operationId) {
          throw new Error(`${method.toUpperCase()} ${path}: operationId ${existing.operationId} on one host, ${op.operationId} on the other`);
        }
        target[method] = existing ? { ...existing, security: unionOf(existing.security ?? [], op.security ?? []) } : op;
      }
      (hosts.get(path) ?? hosts.set(path, new Set()).get(path)!).add(host);
    }
  }
  for (const [path, set] of hosts) {
    paths[path]!.servers = [...set].map((h) => (h === 'control' ? controlServer : realtimeServer));
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const schemas = {
    ...((control.components?.schemas as object) ?? {}),
    ...((realtime.components?.schemas as object) ?? {}),
    ...(((extra.components as { schemas?: object } | undefined)?.schemas as object) ?? {}),
  } as Record<string, unknown>;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Realtime messaging service',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    externalDocs: { description: 'The multiplexed socket GET /v1/connect: AsyncAPI 3.0 document', url: ASYNCAPI_PATH },
    servers: [controlServer, realtimeServer],
    tags: TAGS,
    paths: sortedPaths,
    webhooks: webhookDocs(),
    ...extra,
    components: {
      ...((control.components as object) ?? {}),
      ...((realtime.components as object) ?? {}),
      ...((extra.components as object) ?? {}),
      schemas: reachableSchemas(sortedPaths, schemas),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** One host's operation as the merged document shows it. */
function normaliseOperation(operation: Operation, host: 'control' | 'realtime'): Operation {
  const op: Operation = { ...operation };
  if (op[OPTIONAL_BODY]) {
    delete op[OPTIONAL_BODY];
    if (op.requestBody) op.requestBody = { ...op.requestBody, required: false };
  }
  const responses: Record<string, Response> = { ...op.responses };
  // every control-plane request counts against its key's (or the anonymous minter's) rate limits
  if (host === 'control' && !responses['429']) {
    responses['429'] = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    const next: Response = { ...response };
    if (next.description === undefined || next.description === 'Default Response') {
      next.description = code >= 400 ? errorResponseDescription(code) : (STATUS_CODES[code] ?? 'Success');
    }
    if (code === 429 || code === 503) next.headers = { 'retry-after': RETRY_AFTER_HEADER, ...next.headers };
    responses[status] = next;
  }
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  return op;
}

/** The component schemas reachable through `$ref`s from the paths, transitively. */
function reachableSchemas(paths: Record<string, unknown>, schemas: Record<string, unknown>): Record<string, unknown> {
  const PREFIX = '#/components/schemas/';
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith(PREFIX)) {
          const name = child.slice(PREFIX.length);
          if (!reached.has(name)) {
            reached.add(name);
            visit(schemas[name]);
          }
        } else {
          visit(child);
        }
      }
    }
  };
  visit(paths);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
}

/** The merged document of two ready apps. */
export function documentOf(control: FastifyInstance, realtime: FastifyInstance, extra?: Partial<Doc>): Doc {
  return mergeOpenApi(control.swagger() as Doc, realtime.swagger() as Doc, extra);
}

/** Both hosts' security requirements, each once (an operation may take the same credentials on both). */
function unionOf(a: unknown[], b: unknown[]): unknown[] {
  const seen = new Set(a.map((item) => JSON.stringify(item)));
  return [...a, ...b.filter((item) => !seen.has(JSON.stringify(item)))];
}
