/**
 * Configuration: `process.env` is read once per process, in `main.ts`, through one of the
 * `load*Config` functions below. Each parses with zod and returns a frozen object that is
 * passed down explicitly; nothing else in the codebase reads the environment. The value types
 * and the groups of variables several processes share are in fields.ts.
 */
import { z } from 'zod';

export { parseDuration, parseSchedule } from './duration.ts';
import { parseSchedule } from './duration.ts';
export {
  parseDatabaseUrl,
  databaseUrlProblem,
  withSessionAttrs,
  SESSION_ATTRS,
  type DatabaseAddress,
  type DatabaseHost,
  type SessionAttrs,
} from './database-url.ts';
import { withSessionAttrs } from './database-url.ts';
import { publicOrigin } from './public-origin.ts';

import { databaseUrl, port, duration, durationAtLeast, base, webhookSecurity, nameResolution, partitioning } from './fields.ts';

const gateway = base.extend({
  ...webhookSecurity,
  ...nameResolution,
  ...partitioning,
  /**
   * Where history, replay pages, rosters, ledger pages and the dashboard's browsing read
   * (docs/read-replicas.md): one host or several, `target_session_attrs` `prefer-standby` unless
   * the URL says otherwise. Unset: every read goes to DATABASE_URL, as without replicas.
   */
  DATABASE_READ_URL: z
    .preprocess((value) => (value === '' ? undefined : value), databaseUrl.optional())
    .transform((value) => (value === undefined ? undefined : withSessionAttrs(value, 'prefer-standby'))),
  CONTROL_PORT: port.default(8080),
  REALTIME_PORT: port.default(8081),
  /**
   * One structured line per answered request (and per WebSocket upgrade) at info level: method,
   * route pattern, status, time, environment and request id (docs/operations.md). Unset: on with
   * NODE_ENV=production, off otherwise (`npm start` stays readable).
   */
  ACCESS_LOG: z.enum(['on', 'off']).optional(),
  /** Issuer written into user JWTs. */
  TOKEN_ISSUER: z.string().min(1).default('rtm'),
  /** How long a credential lookup may be served from the in-process cache. */
  CREDENTIAL_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** The shortest time between two fetches of one environment's JWKS URL (a token with an unknown kid refetches). */
  TOKEN_JWKS_REFETCH_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** How long the gateway waits for a channel owner before answering 503. */
  OWNER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /**
   * Under load, a channel-node's bundle of commands waits up to this long for the next turns'
   * commands (libs/owner-client owner-batcher.ts, libs/ops linger.ts); 0 turns it off. Timers fire
   * no sooner than 1 ms, so values under 1 act as 1 unless OWNER_FILL commands end the wait first.
   */
  OWNER_LINGER_MS: z.coerce.number().min(0).max(20).default(1),
  /** A bundle waiting goes at once when it holds this many commands. */
  OWNER_FILL: z.coerce.number().int().min(1).max(10_000).default(32),
  /** Bytes a socket may have queued before it is closed with 4503. */
  SOCKET_BUFFER_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  HEARTBEAT_MS: z.coerce.number().int().min(100).default(25_000),
  /** Bytes queued to clients over all of a gateway's sockets; over it the slowest sockets are closed with 4503. */
  SOCKET_SEND_BUDGET: z.coerce
    .number()
    .int()
    .min(65_536)
    .default(256 * 1024 * 1024),
  /** Bytes queued to the sockets of one environment on a gateway; over it that environment's slowest sockets are closed with 4503. */
  SOCKET_SEND_BUDGET_PER_ENVIRONMENT: z.coerce
    .number()
    .int()
    .min(65_536)
    .default(64 * 1024 * 1024),
  /** Subscribes (access and seq reads) and replay page reads running at once on a gateway, over every environment. */
  SUBSCRIBE_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(32),
  /**
   * The same, for one environment; the rest wait their turn (round-robin between environments).
   * A subscribe mostly waits for its batched access read, so this bounds how many look-ups a
   * storm's reads carry, not Postgres's load (at most 2 reads per environment run at once).
   */
  SUBSCRIBE_CONCURRENCY_PER_ENVIRONMENT: z.coerce.number().int().min(1).max(10_000).default(16),
  /** Subscribes and replay page reads of one environment waiting on a gateway; past it they are refused (`rate_limited`). */
  SUBSCRIBE_QUEUE_PER_ENVIRONMENT: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
  /** Frames per second a socket may send (bursts up to one second's worth); over it: 4429. */
  SOCKET_FRAMES_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Frames per second a multiplexed connection (`/v1/connect`) may send: it carries many channels, so a reconnect re-subscribes them all at once. */
  CONNECT_FRAMES_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(500),
  /** Channel subscriptions one multiplexed connection may hold; over it: an error frame `rate_limited`. */
  MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Bytes per second a socket may send (bursts up to one second's worth); at least one largest frame (128 KiB). */
  SOCKET_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(131_072)
    .default(2 * 1024 * 1024),
  /** Time from upgrade to authenticated, access checked and replay started; over it: 4503. */
  SOCKET_HANDSHAKE_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * How often a gateway flushes its sockets' connection seconds into the monthly quota's count, and
   * how long it trusts an environment's connection-minute limit and count before reading them again (docs/quotas.md).
   */
  QUOTA_FLUSH_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** How long a closed socket's peer has to finish the close handshake before the connection is reset. */
  SOCKET_CLOSE_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  /** A gateway's presence entries expire this long after its last heartbeat (it refreshes at a third). */
  PRESENCE_TTL_MS: z.coerce.number().int().min(1_000).max(300_000).default(15_000),
  /**
   * `channel.occupancy` webhook events go at most once per channel per this interval (wall-clock
   * slots: set it alike on every gateway); only to endpoints that name the type.
   */
  PRESENCE_OCCUPANCY_WEBHOOK_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(15_000),
  /** Notifications older than this are neither returned nor kept (7 days by default). */
  NOTIFICATION_RETENTION: duration('7d'),
  /** How long a channel access decision may be reused; changes made through the API invalidate at once. 0 disables. */
  ACCESS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** A client must send a request's headers within this time (slowloris). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** A client must send a whole request (headers and body) within this time. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** An idle keep-alive connection is closed after this time. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Open connections (HTTP and WebSocket) per client address on each public listener; 0 = no limit. */
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(2_048),
  /**
   * Which proxies to believe about the client address (X-Forwarded-For): off by default; `true`
   * (exactly one hop: the right-most entry is the client), a hop count, or a comma list of
   * addresses/CIDRs (e.g. the load balancer's). apps/gateway/src/http/trust-proxy.ts.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx): boolean | number | string[] => {
      const v = value.trim();
      if (v === 'false' || v === '') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) return Number(v);
      const list = v
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      if (list.every((part) => /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/.test(part))) return list;
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count, or a comma list of addresses/CIDRs' });
      return z.NEVER;
    }),
  /** A dashboard session ends after this long without a request. */
  DASHBOARD_SESSION_IDLE: durationAtLeast('12h', 1_000, '1s'),
  /** A dashboard session ends this long after sign-in, however much it is used. */
  DASHBOARD_SESSION_MAX: durationAtLeast('7d', 1_000, '1s'),
  /**
   * Failed dashboard sign-ins per e-mail address from one client address within
   * DASHBOARD_LOGIN_WINDOW before that address is refused for that account (429); across
   * addresses, the number from which the account's attempts are slowed down (never refused).
   */
  DASHBOARD_LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000).default(5),
  /** Failed dashboard sign-ins per client address within DASHBOARD_LOGIN_WINDOW. */
  DASHBOARD_LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  DASHBOARD_LOGIN_WINDOW: durationAtLeast('15m', 1_000, '1s'),
  /** The longest delay an account's slow-down asks between failed sign-ins (it starts at 1 s and doubles). */
  DASHBOARD_LOGIN_DELAY_MAX: durationAtLeast('1m', 1_000, '1s'),
  /** How long an invitation link to an organization stays valid. */
  DASHBOARD_INVITATION_TTL: durationAtLeast('7d', 1_000, '1s'),
  /**
   * Where the dashboard's mail goes (codes proving an e-mail address: new accounts, password
   * resets): `log` writes each message, code included, to the gateway's log at `info`.
   */
  DASHBOARD_MAIL_SENDER: z.enum(['log']).default('log'),
  /** How long a mailed code stays usable. */
  DASHBOARD_EMAIL_CODE_TTL: durationAtLeast('15m', 1_000, '1s'),
  /** Codes asked for one e-mail address within an hour (verification and reset together). */
  DASHBOARD_EMAIL_CODES_PER_EMAIL: z.coerce.number().int().min(1).max(1_000).default(5),
  /** Codes asked for from one client address within an hour, whatever the e-mail. */
  DASHBOARD_EMAIL_CODES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * The control plane as its clients reach it (`https://api.example.com`, or `http://…` in
   * development): the OpenAPI document's control-plane server and the API reference at /docs.
   * Unset: the origin the request was made to (on the control plane), or its host name with this
   * gateway's CONTROL_PORT (on the realtime edge). Normalised to an http(s) origin.
   */
  CONTROL_PUBLIC_URL: publicOrigin(['http', 'https'], 'https://api.example.com', (secure) => (secure ? 'https' : 'http')),
  /**
   * The realtime edge as browsers reach it (`https://rt.example.com`, or `http://…` in development):
   * where the dashboard's live views and the logs token's `socketUrl` point, the OpenAPI document's
   * realtime server and the AsyncAPI document's server. Unset: the host name the request was made
   * to, with this gateway's REALTIME_PORT (or the request's own origin, on the realtime edge).
   * Normalised to a ws(s) origin.
   */
  REALTIME_PUBLIC_URL: publicOrigin(['http', 'https', 'ws', 'wss'], 'https://rt.example.com', (secure) => (secure ? 'wss' : 'ws')),
});

const channelNode = base.extend({
  ...partitioning,
  /** How often a node rebalances partition ownership. */
  REBALANCE_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /** Most commands one group commit takes from a partition's mailbox. */
  MAX_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /** Merged transactions a channel-node runs at once (node-committer.ts). */
  COMMIT_LANES: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Under load, a commit lane waits up to this long between transactions for more commands
   * (node-committer.ts, libs/ops linger.ts): fewer, fuller transactions for at most this much
   * latency; 0 turns it off. Timers fire no sooner than 1 ms, so values under 1 act as 1 unless
   * commands arriving end the wait first.
   */
  COMMIT_LINGER_MS: z.coerce.number().min(0).max(20).default(1),
  /** A lane lingering goes at once when this many commands wait. */
  COMMIT_FILL: z.coerce.number().int().min(1).max(10_000).default(50),
  /**
   * A publish's webhook deliveries are committed leased to the dispatcher that owns their webhook
   * partition for this long: it sends them straight from the post-commit notice, without a claim
   * (docs/webhooks.md, "First attempts"). A lost notice is found once the lease has lapsed.
   */
  WEBHOOK_PUSH_LEASE: durationAtLeast('30s', 1_000, '1s'),
});

const dispatcher = base.extend({
  ...webhookSecurity,
  ...nameResolution,
  ...partitioning,
  /** How long an erasure's retraction waits for its channel owner before the batch counts as failed. */
  OWNER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Notifications older than this are deleted by the sweep (the gateway's reads filter by the same age). */
  NOTIFICATION_RETENTION: duration('7d'),
  /** How often one dispatcher (the sweep's job key and queue) deletes expired notifications. */
  NOTIFICATION_SWEEP_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  /** Deliveries being sent at once per environment (by its owning dispatcher); more wait, never fail. */
  WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT: z.coerce.number().int().min(1).max(10_000).default(64),
  /** Deliveries being sent at once to one endpoint (an environment's scheme://host:port), by its owning dispatcher. */
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().min(1).max(10_000).default(64),
  /** Sends started per second to one endpoint, by its owning dispatcher (0: no rate limit). */
  WEBHOOK_MAX_RATE_PER_ENDPOINT: z.coerce.number().int().min(0).max(100_000).default(0),
  /** Consecutive failed attempts to one endpoint that open its circuit. */
  WEBHOOK_BREAKER_THRESHOLD: z.coerce.number().int().min(1).max(1_000).default(5),
  /** How long an open circuit holds deliveries back before one probe is let through. */
  WEBHOOK_BREAKER_COOLDOWN: duration('30s'),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('30s,5m,30m,2h,6h')
    .transform((value, ctx) => {
      try {
        return parseSchedule(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WEBHOOK_RETENTION: duration('7d'),
  /**
   * An endpoint whose every attempt failed for this long is disabled (reason `failing`), with an
   * `endpoint.disabled` event to the environment's other endpoints and an audit entry.
   */
  WEBHOOK_DISABLE_AFTER: durationAtLeast('5d', 1_000, '1s'),
  /** How often one dispatcher (the check's job key and queue) looks for endpoints failing that long. */
  WEBHOOK_DISABLE_CHECK_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  /**
   * How long a pending delivery may sit past its due time, unleased, before any dispatcher
   * re-enqueues it when its webhook partition has no owner (the backstop; an owner finds its own).
   */
  WEBHOOK_STALE_AFTER: duration('60s'),
  /** How often each dispatcher looks for dead dispatchers and unlocks their jobs. */
  WORKER_RECOVERY_INTERVAL: duration('2s'),
  /** Messages deleted per transaction by a channel deletion (each batch renews the channel's mark). */
  CHANNEL_DELETION_BATCH: z.coerce.number().int().min(1).max(100_000).default(5_000),
});

/** The variables each kind of process reads (README's configuration table is checked against it). */
export const CONFIG_VARIABLES: Readonly<Record<'gateway' | 'channel-node' | 'dispatcher', readonly string[]>> = Object.freeze({
  gateway: Object.keys(gateway.shape),
  'channel-node': Object.keys(channelNode.shape),
  dispatcher: Object.keys(dispatcher.shape),
});

export type BaseConfig = Readonly<z.infer<typeof base>>;
export type GatewayConfig = Readonly<z.infer<typeof gateway>>;
export type ChannelNodeConfig = Readonly<z.infer<typeof channelNode>>;
export type DispatcherConfig = Readonly<z.infer<typeof dispatcher>>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function load<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): Readonly<z.infer<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const variable = issue.path.join('.') || '(environment)';
      return `  ${variable}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(result.data);
}

export const loadBaseConfig = (env: NodeJS.ProcessEnv): BaseConfig => load(base, env);
export const loadGatewayConfig = (env: NodeJS.ProcessEnv): GatewayConfig => load(gateway, env);
export const loadChannelNodeConfig = (env: NodeJS.ProcessEnv): ChannelNodeConfig => load(channelNode, env);
export const loadDispatcherConfig = (env: NodeJS.ProcessEnv): DispatcherConfig => load(dispatcher, env);

/**
 * For a start-up step that checks configuration beyond the schema (e.g. a key's format):
 * an error whose name ends in `KeyError` or a ConfigError is printed (its message names the
 * variable, never the value) and the process exits 78; anything else is rethrown.
 */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError || (error instanceof Error && /KeyError$/.test(error.name))) {
    process.stderr.write(`invalid configuration:\n  ${error.message}\n`);
    process.exit(78);
  }
  throw error;
}

/** Runs a `load*Config` and exits the process with a readable message on failure. */
export function configOrExit<T>(loader: (env: NodeJS.ProcessEnv) => T): T {
  try {
    return loader(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}
