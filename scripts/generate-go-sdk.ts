/**
 * Writes sdks/go/types_gen.go, the Go types of the control plane (the operations a secret key may
 * call) from docs/openapi.json: a struct per component schema those operations reach, a struct per
 * inline request body (`<OperationId>Input`) and per query string (`<OperationId>Params`, with a
 * `Values()` method), and string enums as typed constants. The code is emitted already gofmt-clean
 * (gofmt's column alignment is reproduced here), so the check needs no Go toolchain; when gofmt is
 * on PATH, `--check` also runs it and fails on any difference.
 *
 *   npx tsx scripts/generate-go-sdk.ts [--input docs/openapi.json] [--output sdks/go/types_gen.go] [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { emitGoFile, type GoDecl, type GoField } from './go-sdk/emit.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_INPUT = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
export const DEFAULT_OUTPUT = fileURLToPath(new URL('../sdks/go/types_gen.go', import.meta.url));

type Schema = Record<string, any>;
type Document = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

/** A Go type for a schema: `kind` decides how optional and null are spelled on a field. */
interface GoType {
  type: string;
  kind: 'scalar' | 'struct' | 'slice' | 'map' | 'raw';
  nullable: boolean;
}

const INITIALISMS = new Map(
  Object.entries({
    id: 'ID',
    ids: 'IDs',
    url: 'URL',
    urls: 'URLs',
    ip: 'IP',
    http: 'HTTP',
    json: 'JSON',
    jwks: 'JWKS',
    jwk: 'JWK',
    jti: 'JTI',
    api: 'API',
    ttl: 'TTL',
    sse: 'SSE',
    kid: 'KID',
  }),
);

/** `channelId` → `ChannelID`, `message.published` → `MessagePublished`. */
export function goName(text: string): string {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const name = words.map((w) => INITIALISMS.get(w.toLowerCase()) ?? w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[0-9]/.test(name) ? `V${name}` : name;
}

const singular = (name: string) => (/[^s]s$/.test(name) ? name.slice(0, -1) : `${name}Item`);

class Generator {
  readonly decls = new Map<string, GoDecl>();
  private readonly enums = new Map<string, string>(); // values key → type name
  private readonly pending = new Set<string>();

  private readonly doc: Document;

  constructor(doc: Document) {
    this.doc = doc;
  }

  /** The component schemas and operations a secret key may call, in document order. */
  run(): GoDecl[] {
    const ops: [string, any][] = [];
    for (const path of Object.keys(this.doc.paths).sort()) {
      for (const [method, op] of Object.entries(this.doc.paths[path]!)) {
        if (typeof op !== 'object' || !Array.isArray(op.security)) continue;
        if (!op.security.some((s: Record<string, unknown>) => 'secretKey' in s)) continue;
        ops.push([`${method} ${path}`, op]);
      }
    }
    // component schemas first (named from the document), then what the operations add inline
    // the error envelope (non-2xx answers) is the hand-written *Error
    for (const [, op] of ops) {
      const answers = Object.entries(op.responses ?? {}).filter(([status]) => /^2/.test(status));
      this.collectRefs([op.parameters, op.requestBody, answers], this.pending);
    }
    for (const name of [...this.pending].sort()) this.component(name);
    for (const [, op] of ops.sort((a, b) => (a[1].operationId < b[1].operationId ? -1 : 1))) this.operation(op);
    return [...this.decls.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private collectRefs(node: unknown, into: Set<string>): void {
    if (Array.isArray(node)) return node.forEach((n) => this.collectRefs(n, into));
    if (!node || typeof node !== 'object') return;
    const ref = (node as Schema).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!into.has(name)) {
        into.add(name);
        this.collectRefs(this.doc.components.schemas[name], into);
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'examples' && key !== 'example') this.collectRefs(value, into);
  }

  private component(name: string): void {
    const schema = this.doc.components.schemas[name];
    if (!schema) throw new Error(`no schema ${name} in components`);
    const typeName = goName(name);
    if (this.decls.has(typeName)) return;
    const type = this.typeOf(schema, typeName);
    if (type.type !== typeName) this.decls.set(typeName, { kind: 'alias', name: typeName, doc: schema.description, type: type.type });
  }

  private operation(op: any): void {
    const base = goName(op.operationId);
    const body = op.requestBody?.content?.['application/json']?.schema;
    if (body && !body.$ref) this.typeOf(body, `${base}Input`, `The body of ${op.operationId}.`);
    const query = (op.parameters ?? []).filter((p: any) => p.in === 'query');
    if (query.length > 0) {
      const fields: GoField[] = query.map((p: any) => {
        const t = this.typeOf(p.schema, `${base}Params${goName(p.name)}`);
        return { name: goName(p.name), jsonName: p.name, doc: p.description, ...this.fieldType(t, p.required === true), query: t.type };
      });
      this.decls.set(`${base}Params`, { kind: 'params', name: `${base}Params`, doc: `The query string of ${op.operationId}.`, fields });
    }
  }

  /** The Go type of `schema`; objects and enums become declarations named `name`. */
  typeOf(schema: Schema, name: string, doc?: string): GoType {
    if (schema.$ref) {
      const ref = String(schema.$ref).slice('#/components/schemas/'.length);
      this.component(ref);
      const decl = this.decls.get(goName(ref));
      const kind = decl?.kind === 'struct' ? 'struct' : decl?.kind === 'alias' ? this.aliasKind(decl.type) : 'scalar';
      return { type: goName(ref), kind, nullable: false };
    }
    const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (variants) {
      const real = variants.filter((v) => v.type !== 'null');
      const nullable = real.length < variants.length;
      if (real.length === 1) return { ...this.typeOf({ description: schema.description, ...real[0] }, name, doc), nullable };
      return { type: 'json.RawMessage', kind: 'raw', nullable }; // a union: decode it by its shape
    }
    let type = schema.type;
    let nullable = false;
    if (Array.isArray(type)) {
      nullable = type.includes('null');
      const real = type.filter((t: string) => t !== 'null');
      type = real.length === 1 ? real[0] : undefined;
    }
    const scalar = (t: string): GoType => ({ type: t, kind: 'scalar', nullable });
    if (type === 'string' && Array.isArray(schema.enum) && schema.enum.length > 1) return { ...this.enumType(schema, name), nullable };
    switch (type) {
      case 'string':
        return scalar(schema.format === 'date-time' ? 'time.Time' : 'string');
      case 'integer':
        return scalar('int64');
      case 'number':
        return scalar('float64');
      case 'boolean':
        return scalar('bool');
      case 'array': {
        const item = this.typeOf(schema.items ?? {}, singular(name));
        return { type: `[]${item.kind === 'scalar' && item.nullable ? '*' : ''}${item.type}`, kind: 'slice', nullable };
      }
      case 'object': {
        const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
        const extra = schema.additionalProperties;
        if (props.length === 0) {
          if (extra && typeof extra === 'object' && Object.keys(extra).length > 0) {
            const value = this.typeOf(extra, `${name}Value`);
            return { type: `map[string]${value.type}`, kind: 'map', nullable };
          }
          return { type: 'json.RawMessage', kind: 'raw', nullable }; // any JSON object, kept as sent
        }
        const required = new Set<string>(schema.required ?? []);
        this.decls.set(name, { kind: 'struct', name, doc: doc ?? schema.description, fields: [] });
        const fields = props.map(([prop, propSchema]) => {
          const t = this.typeOf(propSchema, `${name}${goName(prop)}`);
          return { name: goName(prop), jsonName: prop, doc: propSchema.description, ...this.fieldType(t, required.has(prop)) };
        });
        this.decls.set(name, { kind: 'struct', name, doc: doc ?? schema.description, fields });
        return { type: name, kind: 'struct', nullable };
      }
      default:
        return { type: 'json.RawMessage', kind: 'raw', nullable }; // no type: any JSON value
    }
  }

  private aliasKind(type: string): GoType['kind'] {
    return type.startsWith('[]') ? 'slice' : type.startsWith('map[') ? 'map' : type === 'json.RawMessage' ? 'raw' : 'scalar';
  }

  /**
   * How a field spells optional and null: a slice, map or raw JSON is nil when absent (omitempty
   * when optional); otherwise optional is a pointer with omitempty, required-and-nullable a pointer
   * that encodes as null, and optional-and-nullable a *Nullable[T], so a request can send an
   * explicit null (a merge patch's "remove", an endpoint's "clear the filter").
   */
  private fieldType(t: GoType, required: boolean): { type: string; omitempty: boolean } {
    const nilable = t.kind === 'slice' || t.kind === 'map' || t.kind === 'raw';
    if (!required && t.nullable) return { type: `*Nullable[${t.type}]`, omitempty: true };
    if (nilable) return { type: t.type, omitempty: !required };
    if (required) return { type: t.nullable ? `*${t.type}` : t.type, omitempty: false };
    return { type: `*${t.type}`, omitempty: true };
  }

  private enumType(schema: Schema, name: string): GoType {
    const values = (schema.enum as unknown[]).map(String);
    const key = values.join('\u0000');
    const known = this.enums.get(key);
    if (known) return { type: known, kind: 'scalar', nullable: false };
    this.enums.set(key, name);
    this.decls.set(name, { kind: 'enum', name, doc: schema.description, values });
    return { type: name, kind: 'scalar', nullable: false };
  }
}

/** The text of types_gen.go for an OpenAPI document. */
export function renderGoTypes(doc: Document, source = 'docs/openapi.json'): string {
  return emitGoFile(new Generator(doc).run(), source);
}

/** gofmt's verdict on `text`: null when gofmt is not installed, else its output. */
export function gofmt(text: string): string | null {
  const result = spawnSync('gofmt', [], { input: text, encoding: 'utf8' });
  if (result.error) return null;
  if (result.status !== 0) throw new Error(`gofmt refused the generated code:\n${result.stderr}`);
  return result.stdout;
}

function main(argv: string[]): number {
  const option = (flag: string, fallback: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 && argv[at + 1] ? argv[at + 1]! : fallback;
  };
  const input = option('--input', DEFAULT_INPUT);
  const output = option('--output', DEFAULT_OUTPUT);
  const shown = relative(ROOT, output);
  const text = renderGoTypes(JSON.parse(readFileSync(input, 'utf8')) as Document, relative(ROOT, input));
  if (!argv.includes('--check')) {
    writeFileSync(output, text);
    process.stdout.write(`wrote ${shown}\n`);
    return 0;
  }
  const formatted = gofmt(text);
  if (formatted !== null && formatted !== text) {
    process.stderr.write(`the generated ${shown} is not gofmt-clean: fix scripts/go-sdk/emit.ts\n`);
    return 1;
  }
  let current: string | null = null;
  try {
    current = readFileSync(output, 'utf8');
  } catch {}
  if (current !== text) {
    process.stderr.write(`${shown} is ${current === null ? 'missing' : 'stale'}: run \`npx tsx scripts/generate-go-sdk.ts\` and commit it.\n`);
    return 1;
  }
  process.stdout.write(`${shown} is up to date${formatted === null ? ' (gofmt not installed: formatting not rechecked)' : ''}\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main(process.argv.slice(2)));
