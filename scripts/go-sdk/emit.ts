/**
 * Go source text for scripts/generate-go-sdk.ts, formatted exactly as gofmt would: tabs for
 * indentation, and the cells of consecutive struct fields (or constants) padded to a column,
 * a comment or blank line ending the run (gofmt's tabwriter does the same).
 */

export interface GoField {
  name: string;
  jsonName: string;
  doc?: string;
  type: string;
  omitempty: boolean;
  /** For a query parameter: the Go type of its value (without the pointer). */
  query?: string;
}

/** A struct; `params` also gets a `Values() url.Values` method (a query string). */
export interface StructDecl {
  kind: 'struct' | 'params';
  name: string;
  doc?: string;
  fields: GoField[];
}
export interface AliasDecl {
  kind: 'alias';
  name: string;
  doc?: string;
  type: string;
}
export interface EnumDecl {
  kind: 'enum';
  name: string;
  doc?: string;
  values: string[];
}
export type GoDecl = StructDecl | AliasDecl | EnumDecl;

const WIDTH = 100;

/** `text` as `//` lines of at most about WIDTH columns, after `indent`. */
function comment(text: string | undefined, indent = ''): string[] {
  if (!text) return [];
  const lines: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && indent.length * 4 + 3 + line.length + 1 + word.length > WIDTH) {
        lines.push(`${indent}// ${line}`);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    if (line !== '') lines.push(`${indent}// ${line}`);
  }
  return lines;
}

/** Rows of cells (arrays) and literal lines (strings); each run of rows is aligned as gofmt does. */
function aligned(items: (string | string[])[], indent: string): string[] {
  const out: string[] = [];
  let run: string[][] = [];
  const flush = () => {
    const widths: number[] = [];
    for (const row of run) row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
    for (const row of run)
      out.push(indent + row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]! + 1 + cell.length - [...cell].length) : cell)).join(''));
    run = [];
  };
  for (const item of items) {
    if (typeof item === 'string') {
      flush();
      out.push(item);
    } else {
      run.push(item);
    }
  }
  flush();
  return out;
}

function typeDoc(name: string, doc: string | undefined): string[] {
  return doc ? comment(`${name}: ${doc}`) : [];
}

function struct(decl: StructDecl): string[] {
  const rows: (string | string[])[] = [];
  for (const field of decl.fields) {
    rows.push(...comment(field.doc, '\t'));
    rows.push([field.name, field.type, `\`json:"${field.jsonName}${field.omitempty ? ',omitempty' : ''}"\``]);
  }
  const lines = [...typeDoc(decl.name, decl.doc), `type ${decl.name} struct {`, ...aligned(rows, '\t'), '}'];
  if (decl.kind === 'params') lines.push('', ...valuesMethod(decl));
  return lines;
}

/** How a query value of Go type `type` is written as text. */
function formatted(type: string, value: string): string {
  switch (type) {
    case 'string':
      return value;
    case 'int64':
      return `strconv.FormatInt(${value}, 10)`;
    case 'bool':
      return `strconv.FormatBool(${value})`;
    case 'float64':
      return `strconv.FormatFloat(${value}, 'f', -1, 64)`;
    case 'time.Time':
      return `${value}.Format(time.RFC3339Nano)`;
    default:
      if (/^[A-Z]\w*$/.test(type)) return `string(${value})`; // an enum of this file
      throw new Error(`a query parameter of type ${type} is not supported by the Go generator`);
  }
}

function valuesMethod(decl: StructDecl): string[] {
  const lines = [
    `// Values encodes the parameters that are set as a query string (nil: none).`,
    `func (p *${decl.name}) Values() url.Values {`,
    '\tq := url.Values{}',
    '\tif p == nil {',
    '\t\treturn q',
    '\t}',
  ];
  for (const field of decl.fields) {
    if (field.type.startsWith('*')) {
      lines.push(`\tif p.${field.name} != nil {`, `\t\tq.Set("${field.jsonName}", ${formatted(field.query!, `*p.${field.name}`)})`, '\t}');
    } else {
      lines.push(`\tq.Set("${field.jsonName}", ${formatted(field.query!, `p.${field.name}`)})`);
    }
  }
  lines.push('\treturn q', '}');
  return lines;
}

/** A constant's name for `value` of enum `type`: `MessageEnvelopeKind` + `User`. */
function constantName(type: string, value: string): string {
  const words = value.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const tail = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (tail === '') throw new Error(`enum ${type}: the value ${JSON.stringify(value)} gives no constant name`);
  return type + (/^[0-9]/.test(tail) ? `V${tail}` : tail);
}

function enumeration(decl: EnumDecl): string[] {
  const names = decl.values.map((v) => constantName(decl.name, v));
  if (new Set(names).size !== names.length) throw new Error(`enum ${decl.name}: two values give the same constant name`);
  return [
    ...typeDoc(decl.name, decl.doc ?? 'one of the constants below.'),
    `type ${decl.name} string`,
    '',
    `// The values of ${decl.name}.`,
    'const (',
    ...aligned(
      decl.values.map((value, i) => [names[i]!, decl.name, `= ${JSON.stringify(value)}`]),
      '\t',
    ),
    ')',
  ];
}

export function emitGoFile(decls: GoDecl[], source: string): string {
  const body: string[] = [];
  for (const decl of decls) {
    body.push('');
    if (decl.kind === 'enum') body.push(...enumeration(decl));
    else if (decl.kind === 'alias') body.push(...typeDoc(decl.name, decl.doc), `type ${decl.name} ${decl.type}`);
    else body.push(...struct(decl));
  }
  const text = body.join('\n');
  const imports = [
    ['encoding/json', /\bjson\.RawMessage\b/],
    ['net/url', /\burl\.Values\b/],
    ['strconv', /\bstrconv\./],
    ['time', /\btime\.(Time|RFC3339Nano)\b/],
  ]
    .filter(([, pattern]) => (pattern as RegExp).test(text))
    .map(([path]) => `\t"${path as string}"`);
  const head = [
    `// Code generated by scripts/generate-go-sdk.ts from ${source}; DO NOT EDIT.`,
    '',
    'package rtm',
    ...(imports.length > 0 ? ['', 'import (', ...imports, ')'] : []),
  ];
  return `${[...head, text].join('\n')}\n`;
}
