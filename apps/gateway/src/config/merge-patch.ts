/**
 * JSON Merge Patch (RFC 7396), the semantics of `PATCH /v1/config`: an object patch merges member
 * by member into the target (a target that is not an object counts as `{}`), a `null` member
 * removes that member, anything else (a string, a number, an array) replaces the target whole.
 * Neither argument is modified.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else if (value !== undefined) result[name] = mergePatch(result[name], value);
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
