/**
 * What a V8 heap snapshot holds, by kind (test/bench/connect-memory.ts): every node's self size
 * under a constructor's name for objects, a closure's name and source line, V8's type otherwise;
 * and the difference of two such censuses per socket, largest first.
 */
import { fmt } from './figures.ts';

export interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
      location_fields?: string[];
    };
  };
  nodes: number[];
  edges: number[];
  locations?: number[];
  strings: string[];
}

/** Bytes and objects by kind. */
export type Census = Map<string, { bytes: number; count: number }>;

/**
 * Every node's self size by kind: a constructor's name for objects, a closure's name and source
 * line, V8's type otherwise. V8's internal parts of an object (its property and element arrays,
 * a closure's context, strings held in them) are given the kind of their nearest retainer that
 * is an object or closure, as `part ← owner`, so what each kind of object costs is visible.
 */
export function census(snapshot: Snapshot, scripts: Map<string, string>, explain?: { kinds: string[]; old: Set<number>; out: string[] }): Census {
  const { node_fields: fields, node_types: types, edge_fields: edgeFields, edge_types: edgeTypes } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const edgeCountAt = fields.indexOf('edge_count');
  const edgeWidth = edgeFields.length;
  const edgeTypeAt = edgeFields.indexOf('type');
  const edgeToAt = edgeFields.indexOf('to_node');
  const edgeNameAt = edgeFields.indexOf('name_or_index');
  const idAt = fields.indexOf('id');
  const typeNames = types[0];
  const edgeTypeNames = edgeTypes[0];
  const { nodes, edges, strings } = snapshot;
  const count = nodes.length / width;
  /** The name of the edge from `from` to `to`, as `.name`. */
  const edgeTo = (from: number, to: number): string => {
    if (from === -1) return '';
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e += edgeWidth) {
      if (edges[e + edgeToAt]! / width !== to) continue;
      const type = edgeTypeNames[edges[e + edgeTypeAt]!]!;
      const name = type === 'element' || type === 'hidden' ? `[${edges[e + edgeNameAt]}]` : strings[edges[e + edgeNameAt]!];
      return ` .${name}`;
    }
    return '';
  };
  const typeOf = (n: number) => typeNames[nodes[n * width + typeAt]!]!;
  const nameOf = (n: number) => strings[nodes[n * width + nameAt]!]!;
  // the first strong retainer of each node, and each node's first edge
  const retainer = new Int32Array(count).fill(-1);
  const firstEdge = new Int32Array(count + 1);
  for (let n = 0, e = 0; n < count; n++) {
    firstEdge[n] = e;
    e += nodes[n * width + edgeCountAt]! * edgeWidth;
    firstEdge[n + 1] = e;
  }
  for (let n = 0; n < count; n++) {
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += edgeWidth) {
      const edgeType = edgeTypeNames[edges[e + edgeTypeAt]!]!;
      if (edgeType === 'weak' || edgeType === 'shortcut') continue;
      const to = edges[e + edgeToAt]! / width;
      if (retainer[to] === -1 && typeOf(n) !== 'synthetic') retainer[to] = n;
    }
  }
  // closures' source lines
  const where = new Map<number, string>();
  if (snapshot.locations && snapshot.snapshot.meta.location_fields) {
    const lf = snapshot.snapshot.meta.location_fields;
    const lw = lf.length;
    const objectAt = lf.indexOf('object_index');
    const scriptAt = lf.indexOf('script_id');
    const lineAt = lf.indexOf('line');
    for (let at = 0; at < snapshot.locations.length; at += lw) {
      const script = scripts.get(String(snapshot.locations[at + scriptAt])) ?? `script ${snapshot.locations[at + scriptAt]}`;
      where.set(snapshot.locations[at + objectAt]! / width, `${script}:${snapshot.locations[at + lineAt]! + 1}`);
    }
  }
  const kindOf = (n: number): string | undefined => {
    const type = typeOf(n);
    const name = nameOf(n);
    if (type === 'object' && name !== 'system' && !name.startsWith('system /')) return `object ${name.split(' ')[0]}`;
    if (type === 'native') return `native ${name.split(' ')[0]}`;
    if (type === 'closure') return `closure ${name || '(anonymous)'} ${where.get(n) ?? ''}`;
    return undefined;
  };
  const partOf = (n: number): string => {
    const type = typeOf(n);
    const name = nameOf(n);
    if (type === 'hidden' || type === 'array' || type === 'object shape' || type === 'object') return `${type} ${name.slice(0, 30)}`;
    return type;
  };
  /** Plain containers say little by themselves: they are shown with their owner too. */
  const generic = /^(object (Object|Array|Map|Set|Promise|Date|Buffer|Uint8Array|ArrayBuffer)|closure (\(anonymous\)|native_bind) ?)$/;
  const specific = (n: number): string | undefined => {
    const kind = kindOf(n);
    return kind === undefined || generic.test(kind) ? undefined : kind;
  };
  const out: Census = new Map();
  for (let n = 0; n < count; n++) {
    let kind = kindOf(n);
    if (kind !== undefined && generic.test(kind)) {
      let owner = retainer[n]!;
      let owned: string | undefined;
      for (let depth = 0; owner !== -1 && depth < 5 && owned === undefined; depth++) {
        owned = specific(owner);
        if (owned === undefined) owner = retainer[owner]!;
      }
      kind = `${kind} ← ${owned ?? '?'}`;
    } else if (kind === undefined) {
      let owner = retainer[n]!;
      let owned: string | undefined;
      for (let depth = 0; owner !== -1 && depth < 4 && owned === undefined; depth++) {
        owned = kindOf(owner);
        if (owned === undefined) owner = retainer[owner]!;
      }
      kind = `${partOf(n)} ← ${owned ?? '?'}`;
    }
    if (explain?.kinds.includes(kind) && !explain.old.has(nodes[n * width + idAt]!) && explain.out.length < 400) {
      const chain: string[] = [];
      for (let at = n, depth = 0; at !== -1 && depth < 8; at = retainer[at]!, depth++)
        chain.push(`${typeOf(at)} ${nameOf(at).slice(0, 50)}${edgeTo(retainer[at]!, at)}`);
      explain.out.push(`${kind} (${nodes[n * width + sizeAt]} B): ${chain.join(' ← ')}`);
    }
    const entry = out.get(kind) ?? { bytes: 0, count: 0 };
    entry.bytes += nodes[n * width + sizeAt]!;
    entry.count++;
    out.set(kind, entry);
  }
  return out;
}

export function difference(before: Census, after: Census, per: number, top: number): string {
  const rows: [string, number, number][] = [];
  let total = 0;
  for (const [kind, { bytes, count }] of after) {
    const was = before.get(kind) ?? { bytes: 0, count: 0 };
    rows.push([kind, (bytes - was.bytes) / per, (count - was.count) / per]);
    total += bytes - was.bytes;
  }
  for (const [kind, was] of before) if (!after.has(kind)) rows.push([kind, -was.bytes / per, -was.count / per]), (total -= was.bytes);
  rows.sort((a, b) => b[1] - a[1]);
  const lines = rows.slice(0, top).map(([kind, bytes, count]) => `  ${bytes.toFixed(0).padStart(7)} B  ${count.toFixed(2).padStart(7)} ×  ${kind}`);
  return `heap snapshot difference per socket: ${fmt(total / per)} B\n${lines.join('\n')}\n`;
}
