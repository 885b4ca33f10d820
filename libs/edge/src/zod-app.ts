import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The gateway's two public listeners: the control plane (secret keys) and the realtime edge (user tokens). */
export type Host = 'control' | 'realtime';

/** A public listener as the gateway builds it: Fastify with zod schemas for validation and types. */
export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;
