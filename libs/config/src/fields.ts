/**
 * The pieces the processes' configurations are made of (index.ts): value types (a Postgres URL,
 * a port, a duration, a boolean) and the groups of variables several kinds of process read.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseDuration } from './duration.ts';
import { databaseUrlProblem } from './database-url.ts';

/** A Postgres URL, one host or several (libpq's form; database-url.ts). */
export const databaseUrl = z.string().superRefine((value, ctx) => {
  const problem = databaseUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const port = z.coerce.number().int().min(0).max(65535);

export const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      try {
        return parseDuration(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

/** A duration that must be at least `minMs`. */
export const durationAtLeast = (fallback: string, minMs: number, minText: string) =>
  duration(fallback).refine((ms) => ms >= minMs, { message: `must be at least ${minText}` });

/** What every process reads: Postgres, NATS, its internal listener, its name and log level. */
export const base = z.object({
  /** One host, or several (`postgres://h1:5432,h2:5432/rtm`): every process uses the one that accepts writes. */
  DATABASE_URL: databaseUrl.default('postgres://postgres@127.0.0.1:5432/rtm'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  NATS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 of [A-Za-z0-9_-] (it starts subjects, buckets and streams)')
    .default('rtm'),
  INTERNAL_PORT: port.default(9090),
  /**
   * The address every listener of the process binds (the gateway's public ports and each process's
   * internal port): loopback unless set, so a development process is not reachable from the
   * network; deploy/ sets 0.0.0.0 (every IPv4 interface) or `::` where the network must reach it.
   */
  HOST: z
    .string()
    .default('127.0.0.1')
    .refine(
      (value) =>
        isIP(value) !== 0 || /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(value),
      {
        message: 'must be an IP address (0.0.0.0, 127.0.0.1, ::) or a host name',
      },
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Name of this process in logs and metrics; `npm start` sets it per child. */
  NODE_NAME: z.string().min(1).max(64).optional(),
  // NATS credentials and TLS (passed to nats.js `connect`); never logged
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  NATS_TOKEN: z.string().min(1).optional(),
  /** A `.creds` file (JWT + NKey seed), as `nsc` writes it. */
  NATS_CREDS_FILE: z.string().min(1).optional(),
  /** PEM file of the CA that signed the NATS servers' certificates; setting it (or the cert) turns TLS on. */
  NATS_TLS_CA: z.string().min(1).optional(),
  /** PEM client certificate and key, for servers that verify clients. */
  NATS_TLS_CERT: z.string().min(1).optional(),
  NATS_TLS_KEY: z.string().min(1).optional(),
  /**
   * How often the process writes what its usage meter counted (libs/usage, docs/stats.md): a
   * minute is complete in `usage_minutes` this long (plus the write) after it ends, and a kill -9
   * loses at most this much of the process's counts. At most a minute: the meter's connection
   * time and peaks are carried into each minute by these ticks.
   */
  USAGE_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** `off`: nothing is counted or written (the publish benchmark's baseline). */
  USAGE_COUNTING: z.enum(['on', 'off']).default('on'),
});

export const boolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

/** What both processes that handle webhook URLs and secrets read (the gateway and the dispatcher). */
export const webhookSecurity = {
  /**
   * `production` makes a missing SECRET_ENCRYPTION_KEY fatal (no development fallback); the gateway
   * also stops logging invitation links. Every file under deploy/ sets it.
   */
  NODE_ENV: z.string().default('development'),
  /**
   * Allows webhook URLs on localhost, 127.0.0.1 and [::1] (and sending to loopback addresses).
   * Off by default: a production dispatcher must never POST to its own host's services.
   */
  WEBHOOK_ALLOW_LOOPBACK: boolean(false),
  /** 32 bytes, base64 or hex: encrypts webhook secrets at rest (AES-256-GCM). Required when NODE_ENV=production. */
  SECRET_ENCRYPTION_KEY: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  /** Earlier keys, comma-separated: still decrypt what they encrypted until it is re-encrypted at start. */
  SECRET_ENCRYPTION_KEYS_OLD: z.string().min(1).optional(),
};

/**
 * Name resolution of the hosts tenants name, through c-ares (libs/rules host-resolver.ts): the
 * dispatcher's webhook endpoints, the gateway's JWKS URLs.
 */
export const nameResolution = {
  /** Name servers for the hosts tenants name (webhooks, JWKS URLs), comma-separated `ip` or `ip:port` (default: the system's). */
  DNS_SERVERS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const servers = value.split(',').map((item) => item.trim());
      const bad = servers.find((item) => !/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(item));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `"${bad}" is not an ip or ip:port` });
        return z.NEVER;
      }
      return servers;
    }),
  /** One name server query; a look-up tries each server up to DNS_TRIES times. */
  DNS_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2_000),
  DNS_TRIES: z.coerce.number().int().min(1).max(5).default(2),
};

/** What the processes that map a channel to its partition read (the gateway, the channel-node, the dispatcher). */
export const partitioning = {
  /** Number of channel partitions; every process of a cluster must agree on it. */
  PARTITIONS: z.coerce.number().int().min(1).max(4096).default(32),
};
