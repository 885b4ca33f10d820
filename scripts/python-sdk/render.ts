/**
 * The Python SDK's generated modules from the API model: `models.py` (a TypedDict or alias per
 * component schema the control plane uses, per operation's body, query and answer, and per webhook
 * event) and `operations.py` (the operations table the hand-written client calls through).
 */
import type { ApiModel, JsonSchema, Operation } from './openapi-model.ts';
import { PythonTypes, docstring, pascal, pythonLiteral } from './python-types.ts';

const HEADER = `# Generated from docs/openapi.json by scripts/generate-python-sdk.ts: run
# \`npx tsx scripts/generate-python-sdk.ts\` after the document changes. Do not edit by hand.`;

const TYPING_NAMES = ['Any', 'Dict', 'List', 'Literal', 'Optional', 'Tuple', 'TypedDict', 'Union'];

/** `from typing import …` with exactly the names `body` uses (pyright strict refuses unused imports). */
function typingImport(body: string): string {
  const used = TYPING_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  return used.length === 0 ? '' : `from typing import ${used.join(', ')}\n`;
}

/** The names an operation's types get in models.py. */
export function operationTypeNames(operation: Operation): { body: string; query: string; response: string } {
  const base = pascal(operation.operationId);
  return { body: `${base}Body`, query: `${base}Query`, response: `${base}Response` };
}

/** `message.published` → `MessagePublishedEvent` (`…EventBody` when a component has that name). */
export function eventTypeName(type: string, components: ReadonlySet<string>): string {
  const name = `${pascal(type)}Event`;
  return components.has(name) ? `${name}Body` : name;
}

const pyTuple = (items: string[]) => (items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`);

function querySchema(operation: Operation): JsonSchema {
  return {
    type: 'object',
    description: `Query parameters of \`${operation.operationId}\`.`,
    properties: Object.fromEntries(operation.queryParams.map((p) => [p.name, { ...p.schema, ...(p.description && { description: p.description }) }])),
    required: operation.queryParams.filter((p) => p.required).map((p) => p.name),
  };
}

function responseSchema(operation: Operation): JsonSchema | null {
  const bodies = operation.responses.map((r) => r.schema).filter((s): s is JsonSchema => s !== null);
  if (bodies.length === 0) return null;
  const nullable = bodies.length < operation.responses.length;
  const variants = [...bodies, ...(nullable ? [{ type: 'null' }] : [])];
  return variants.length === 1 ? variants[0]! : { anyOf: variants };
}

export function renderModels(model: ApiModel): string {
  const operationNames = model.operations.flatMap((op) => Object.values(operationTypeNames(op)));
  const components = new Set(model.schemas.map(([name]) => name));
  const eventName = (type: string) => eventTypeName(type, components);
  const eventNames = model.events.map((event) => eventName(event.type));
  const types = new PythonTypes([...model.schemas.map(([name]) => name), ...operationNames, ...eventNames, 'WebhookEvent']);
  for (const [name, schema] of model.schemas) types.declare(name, schema);
  for (const operation of model.operations) {
    const names = operationTypeNames(operation);
    if (operation.body) types.declare(names.body, { description: `Request body of \`${operation.operationId}\`.`, ...operation.body.schema });
    if (operation.queryParams.length > 0) types.declare(names.query, querySchema(operation));
    const response = responseSchema(operation);
    // an operation answering only 204 has no answer type: its method returns None
    if (response !== null) types.declare(names.response, response);
  }
  for (const event of model.events) types.declare(eventName(event.type), { ...event.body, description: event.description });
  const events = model.events.map((event) => `    ${eventName(event.type)},`).join('\n');
  const eventTypes = model.events.map((event) => `    ${pythonLiteral(event.type)},`).join('\n');
  const body =
    types.blocks.join('\n\n') +
    `\n\nWebhookEvent = Union[\n${events}\n]\n${docstring('The body of any webhook delivery; branch on its `type`.', '')}\n\n` +
    `WEBHOOK_EVENT_TYPES: Tuple[str, ...] = (\n${eventTypes}\n)\n${docstring('Every event type the service sends.', '')}\n`;
  return (
    `${HEADER}\n${docstring(`Typed models of ${model.title} ${model.version}: TypedDicts (plain dicts at run time) for the control plane's requests and answers and the webhook events.`, '')}\n` +
    `from __future__ import annotations\n\n${typingImport(body)}\n\n${body}`
  );
}

export function renderOperations(model: ApiModel): string {
  const entries = model.operations.map((op) => {
    const fields = [
      `method=${pythonLiteral(op.method)}`,
      `path=${pythonLiteral(op.path)}`,
      `path_params=${pyTuple(op.pathParams.map((p) => pythonLiteral(p.name)))}`,
      `query_params=${pyTuple(op.queryParams.map((p) => pythonLiteral(p.name)))}`,
      `body=${op.body === null ? 'None' : op.body.required ? '"required"' : '"optional"'}`,
      `statuses=${pyTuple(op.responses.map((r) => String(r.status)))}`,
      `summary=${pythonLiteral(op.summary)}`,
    ];
    return `    ${pythonLiteral(op.operationId)}: Operation(\n${fields.map((f) => `        ${f},`).join('\n')}\n    ),`;
  });
  return (
    `${HEADER}\n${docstring('Every control-plane operation a secret key may call, by operationId.', '')}\n` +
    `from __future__ import annotations\n\nfrom typing import Dict\n\nfrom ._operation import Operation\n\n` +
    `OPERATIONS: Dict[str, Operation] = {\n${entries.join('\n')}\n}\n`
  );
}
