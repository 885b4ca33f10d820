/**
 * The payload of a cache invalidation on the bus: the environment whose keys, origins, signing
 * keys or configuration changed. An empty payload (or one from an older process) means "every
 * environment".
 */
export function encodeInvalidation(environmentId: string): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ environmentId }));
}

export function decodeInvalidation(data: Uint8Array): string | undefined {
  if (data.length === 0) return undefined;
  try {
    const { environmentId } = JSON.parse(new TextDecoder().decode(data)) as { environmentId?: unknown };
    return typeof environmentId === 'string' && environmentId.length > 0 ? environmentId : undefined;
  } catch {
    return undefined;
  }
}
