/**
 * JSON Schema → Python typing, for the Python SDK's generated models: an object with properties
 * becomes a TypedDict (a JSON answer stays a plain dict at run time, so nothing is parsed twice and
 * a field the SDK does not know yet is kept), anything else a type alias. Only `typing` names that
 * exist on Python 3.9 are used: `Optional`/`Union`/`List`/`Dict`, and a TypedDict with required and
 * optional keys is a required base class and a `total=False` subclass (no `NotRequired` there).
 */
import { refName, type JsonSchema } from './openapi-model.ts';

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

export const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** A value as a Python literal (JSON's string escapes are Python's too). */
export function pythonLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  throw new Error(`no Python literal for ${JSON.stringify(value)}`);
}

/** Text for a docstring: backslashes and triple quotes escaped, no quote at its end. */
export function docstring(text: string, indent: string): string {
  const body = text.trim().replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').replace(/"$/, '\\"');
  return `${indent}"""${body.split('\n').join(`\n${indent}`)}"""`;
}

const isNull = (schema: JsonSchema) => schema.type === 'null';

/** Where a type expression is written: class bodies are lazy (`from __future__ import annotations`), aliases are not. */
type Context = 'class' | 'alias';

export class PythonTypes {
  /** Rendered declarations, in the order they were made (bases before subclasses). */
  readonly blocks: string[] = [];
  private readonly names = new Set<string>();
  private readonly declared = new Set<string>();

  /** `reserved`: names declared later by the caller (components), which inline types must not take. */
  constructor(reserved: Iterable<string>) {
    for (const name of reserved) this.names.add(name);
  }

  private unique(hint: string): string {
    let name = hint;
    for (let n = 2; this.names.has(name); n++) name = `${hint}${n}`;
    this.names.add(name);
    return name;
  }

  /** Declares `name` (already reserved, or new) for `schema`: a TypedDict or an alias. */
  declare(name: string, schema: JsonSchema): void {
    this.names.add(name);
    if (this.declared.has(name)) throw new Error(`${name} is declared twice`);
    if (schema.properties !== undefined && !schema.anyOf && !schema.oneOf) this.typedDict(name, schema);
    else {
      let type = this.typeOf(schema, name, 'alias');
      // a bare quoted name would be a string, not an alias: name the declared type itself
      const bare = /^"(\w+)"$/.exec(type);
      if (bare) {
        if (!this.declared.has(bare[1]!)) throw new Error(`${name} aliases ${bare[1]}, which is declared after it`);
        type = bare[1]!;
      }
      this.blocks.push(`${name} = ${type}\n${schema.description ? docstring(schema.description, '') + '\n' : ''}`);
    }
    this.declared.add(name);
  }

  /** The Python type of `schema`; an inline object with properties is declared as `hint` (made unique). */
  typeOf(schema: JsonSchema, hint: string, context: Context): string {
    const ref = (name: string) => (context === 'alias' ? `"${name}"` : name);
    if (schema.$ref !== undefined) return ref(refName(schema.$ref));
    if (schema.allOf !== undefined) throw new Error(`allOf is not supported (${hint})`);
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants !== undefined) {
      const nullable = variants.some(isNull);
      const rest = variants.filter((v) => !isNull(v));
      const types = [...new Set(rest.map((v, i) => this.typeOf(v, rest.length === 1 ? hint : `${hint}${i + 1}`, context)))];
      return this.optional(types.length === 1 ? types[0]! : `Union[${types.join(', ')}]`, nullable);
    }
    if (schema.const !== undefined) return `Literal[${pythonLiteral(schema.const)}]`;
    if (schema.enum !== undefined) {
      const values = schema.enum.filter((v) => v !== null);
      return this.optional(`Literal[${values.map(pythonLiteral).join(', ')}]`, values.length < schema.enum.length);
    }
    if (Array.isArray(schema.type)) {
      const kinds = schema.type.filter((t) => t !== 'null');
      const types = kinds.map((kind) => this.typeOf({ ...schema, type: kind }, hint, context));
      return this.optional(types.length === 1 ? types[0]! : `Union[${types.join(', ')}]`, kinds.length < schema.type.length);
    }
    switch (schema.type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${schema.items ? this.typeOf(schema.items, hint.endsWith('s') ? hint.slice(0, -1) : `${hint}Item`, context) : 'Any'}]`;
      case 'object':
      case undefined: {
        if (schema.properties !== undefined) {
          const name = this.unique(hint);
          this.typedDict(name, schema);
          return ref(name);
        }
        const extra = schema.additionalProperties;
        if (schema.type === 'object' && typeof extra === 'object' && Object.keys(extra).length > 0) {
          return `Dict[str, ${this.typeOf(extra, `${hint}Value`, context)}]`;
        }
        return schema.type === 'object' ? 'Dict[str, Any]' : 'Any';
      }
      default:
        throw new Error(`unsupported JSON Schema type ${String(schema.type)} (${hint})`);
    }
  }

  private optional(type: string, nullable: boolean): string {
    return nullable && type !== 'Any' ? `Optional[${type}]` : type;
  }

  private typedDict(name: string, schema: JsonSchema): void {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([key, property]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || KEYWORDS.has(key)) {
        throw new Error(`property ${JSON.stringify(key)} of ${name} is not a Python identifier`);
      }
      const line = `    ${key}: ${this.typeOf(property, `${name}${pascal(key)}`, 'class')}`;
      return { key, text: property.description ? `${line}\n${docstring(property.description, '    ')}` : line };
    });
    const mandatory = fields.filter((f) => required.has(f.key));
    const optional = fields.filter((f) => !required.has(f.key));
    const doc = schema.description ? `${docstring(schema.description, '    ')}\n\n` : '';
    const body = (list: typeof fields) => (list.length === 0 ? '    pass' : list.map((f) => f.text).join('\n'));
    if (optional.length === 0) {
      this.blocks.push(`class ${name}(TypedDict):\n${doc}${body(mandatory)}\n`);
    } else if (mandatory.length === 0) {
      this.blocks.push(`class ${name}(TypedDict, total=False):\n${doc}${body(optional)}\n`);
    } else {
      const base = this.unique(`_${name}Required`);
      this.blocks.push(`class ${base}(TypedDict):\n${body(mandatory)}\n`);
      this.blocks.push(`class ${name}(${base}, total=False):\n${doc}${body(optional)}\n`);
    }
  }
}
