/**
 * JSON Schemas made by `z.toJSONSchema` stand inside another document (an AsyncAPI payload, an
 * OpenAPI webhook body) only once they no longer point into their own `$defs`: a `$ref` such as
 * `#/$defs/ReactionSummary` is resolved against the document that holds the schema, where no
 * `$defs` is. `inlineDefs` replaces each such reference by the definition it names (recursively;
 * the schemas have no cycles) and drops `$schema` and `$defs`.
 */
type Json = unknown;

const DEFS_PREFIX = '#/$defs/';

export function inlineDefs(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $defs, ...rest } = schema as { $schema?: unknown; $defs?: Record<string, Json> };
  const defs = $defs ?? {};
  const resolving = new Set<string>();

  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...fields } = node as { $ref?: unknown } & Record<string, Json>;
    const out: Record<string, Json> = {};
    if (typeof $ref === 'string' && $ref.startsWith(DEFS_PREFIX)) {
      const name = $ref.slice(DEFS_PREFIX.length);
      const target = defs[name];
      if (target === undefined) throw new Error(`inlineDefs: ${$ref} names no definition`);
      if (resolving.has(name)) throw new Error(`inlineDefs: ${$ref} refers to itself`);
      resolving.add(name);
      Object.assign(out, walk(target) as Record<string, Json>);
      resolving.delete(name);
    } else if ($ref !== undefined) {
      out.$ref = $ref;
    }
    // the referring schema's own keywords (a description, say) win over the definition's
    for (const [key, value] of Object.entries(fields)) out[key] = walk(value);
    return out;
  };

  return walk(rest) as Record<string, unknown>;
}
