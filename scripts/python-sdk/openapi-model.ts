/**
 * A small model of docs/openapi.json for the Python SDK's generator: the operations a secret key
 * may call (method, path, parameters, request body and success answers), the component schemas
 * they reach, and the webhook events the service sends. It knows nothing of Python.
 */

/** The JSON Schema subset the document uses (zod's output through the OpenAPI writer). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON request body's schema, or null for an operation without one. */
  body: { schema: JsonSchema; required: boolean } | null;
  /** Success statuses in order, each with its JSON answer's schema (null: no body, as a 204). */
  responses: { status: number; schema: JsonSchema | null }[];
}

export interface WebhookEvent {
  /** The event type, e.g. `message.published`. */
  type: string;
  description: string;
  body: JsonSchema;
}

export interface ApiModel {
  title: string;
  version: string;
  operations: Operation[];
  /** Component schemas reachable from the operations and the events, by name, sorted. */
  schemas: [string, JsonSchema][];
  events: WebhookEvent[];
}

interface Document {
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface RawOperation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  description?: string;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** `#/components/schemas/Name` → `Name`; anything else is refused (the document has no other refs). */
export function refName(ref: string): string {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`unsupported $ref ${ref}`);
  return ref.slice(prefix.length);
}

/** Every component name `schema` refers to, directly or through its subschemas. */
function refsOf(schema: unknown, into: Set<string>): void {
  if (schema === null || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const item of schema) refsOf(item, into);
    return;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') into.add(refName(value));
    else refsOf(value, into);
  }
}

const jsonSchemaOf = (content: Record<string, { schema: JsonSchema }> | undefined) => content?.['application/json']?.schema ?? null;

/** The operations a secret key may call: the control plane's surface. */
function secretKeyOperations(document: Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const raw = item[method] as RawOperation | undefined;
      if (!raw?.operationId) continue;
      if (!(raw.security ?? []).some((requirement) => 'secretKey' in requirement)) continue;
      const parameters = raw.parameters ?? [];
      const body = jsonSchemaOf(raw.requestBody?.content);
      operations.push({
        operationId: raw.operationId,
        method: method.toUpperCase(),
        path,
        summary: raw.summary ?? '',
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: body === null ? null : { schema: body, required: raw.requestBody?.required === true },
        responses: Object.entries(raw.responses ?? {})
          .filter(([status]) => /^2\d\d$/.test(status))
          .map(([status, answer]) => ({ status: Number(status), schema: jsonSchemaOf(answer.content) })),
      });
    }
  }
  return operations.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

function webhookEvents(document: Document): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const [type, item] of Object.entries(document.webhooks ?? {})) {
    const raw = item.post as RawOperation | undefined;
    const body = jsonSchemaOf(raw?.requestBody?.content);
    if (body === null) throw new Error(`webhook ${type} has no JSON body`);
    events.push({ type, description: raw?.description ?? '', body });
  }
  return events.sort((a, b) => a.type.localeCompare(b.type));
}

/** The model of an OpenAPI document (already parsed). */
export function apiModel(document: Document): ApiModel {
  const operations = secretKeyOperations(document);
  const events = webhookEvents(document);
  const reached = new Set<string>();
  refsOf(operations, reached);
  refsOf(events, reached);
  // the closure: a component may refer to others
  const pending = [...reached];
  while (pending.length > 0) {
    const name = pending.pop()!;
    const schema = document.components.schemas[name];
    if (schema === undefined) throw new Error(`$ref to a missing component: ${name}`);
    const more = new Set<string>();
    refsOf(schema, more);
    for (const next of more) {
      if (!reached.has(next)) {
        reached.add(next);
        pending.push(next);
      }
    }
  }
  const schemas = [...reached].sort().map((name): [string, JsonSchema] => [name, document.components.schemas[name]!]);
  return { title: document.info.title, version: document.info.version, operations, schemas, events };
}
