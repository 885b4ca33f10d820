import type { z } from 'zod';

/**
 * One HTTP operation of the public API, as the contract states it: the method, the URL (fastify's
 * `:param` form) and the schema block the gateway validates with and the OpenAPI document is
 * built from. A route implements it by spreading it into `app.route` and adding only its auth
 * hook and handler, so the contract is written once and the request and reply types follow from
 * these schemas. Constants are written `{ … } as const satisfies Operation` to keep their exact
 * schema types for that inference.
 */
export interface Operation {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly schema: {
    readonly operationId: string;
    readonly summary: string;
    readonly description: string;
    readonly tags: readonly string[];
    readonly security: readonly { readonly [scheme: string]: readonly string[] }[];
    readonly params?: z.ZodType;
    readonly querystring?: z.ZodType;
    readonly body?: z.ZodType;
    readonly headers?: z.ZodType;
    readonly response: { readonly [status: number]: z.ZodType };
  };
}

/** The operations of one resource, by name. */
export type Operations = Readonly<Record<string, Operation>>;

export const SECRET_KEY = [{ secretKey: [] }] as const;
export const USER_TOKEN = [{ userToken: [] }] as const;
export const SESSION = [{ dashboardSession: [] }] as const;

/**
 * The freshness of the reads a replica may serve (DATABASE_READ_URL; docs/read-replicas.md), as the
 * operations that make them state it.
 */
export const CURRENT_READ =
  ' Reflects every change committed before the request: a replica answers only once it has replayed that far ' + '(waited for briefly), else the primary.';
