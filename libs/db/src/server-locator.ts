/**
 * Finds the listed Postgres server a pool's sessions go to (libpq's multi-host URLs with
 * `target_session_attrs`, which node-postgres does not do itself), and checks every new session:
 *
 * - every new connection asks the server what it is (readServerState, one round trip) and is
 *   refused when it does not fit (server-choice.ts: for writes, a standby, a read-only server or
 *   an old primary on an older timeline), so a pool never holds a session that cannot write;
 * - a connection that fails or is refused forgets the server it went to; the next one searches:
 *   every listed server is asked at once and the rules pick one;
 * - a search that finds none fails every connection at once with `NoServerError` (a connection
 *   error: callers answer 503 `unavailable`) until the next search, after a back-off of 100 ms
 *   doubling to 1 s, so a promotion is found within about a second and nobody waits on a dead host.
 *
 * A URL with one host never searches: that host is used, as before, and still checked, so a
 * process pointed at a standby alone answers 503 and writes nothing (a DNS name or a proxy that
 * flips to a new primary keeps working: each connection resolves the name again).
 */
import pg from 'pg';
import { isConnectionError } from './connection-errors.ts';
import { parseDatabaseUrl, type DatabaseAddress, type DatabaseHost } from '@rtm/config';
import { chooseServer, noteTimeline, readServerState, refusal, type ServerState, type Timelines } from './server-choice.ts';

/** What the locator tells its observer (metrics, logs). */
export type LocatorEvent =
  | { kind: 'search'; outcome: 'found' | 'none'; ms: number; host?: string }
  | { kind: 'refused'; host: string; reason: 'read_only' | 'writable' | 'older_timeline' };

export type LocatorObserver = (event: LocatorEvent) => void;

/**
 * No listed server fits (or the one listed does not): a connection error for callers
 * (isConnectionError), with libpq's SQLSTATE for "unable to establish a connection".
 */
export class NoServerError extends Error {
  override name = 'NoServerError';
  readonly code = '08001';
}

const BACKOFF_MS = [100, 200, 400, 800, 1_000];
const PROBE_TIMEOUT_MS = 2_000;

const label = (host: DatabaseHost) => `${host.host}:${host.port}`;

export class ServerLocator {
  readonly address: DatabaseAddress;
  /** The newest timeline seen per cluster: a server on an older one is never used for writes. */
  readonly timelines: Timelines = new Map();
  readonly #observers = new Set<LocatorObserver>();
  #current: DatabaseHost | undefined;
  #search: Promise<DatabaseHost> | undefined;
  #failures = 0;
  #retryAt = 0;
  #lastError: NoServerError | undefined;

  constructor(address: DatabaseAddress) {
    this.address = address;
    if (address.hosts.length === 1) this.#current = address.hosts[0];
  }

  observe(observer: LocatorObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** The server a new connection goes to. */
  target(): Promise<DatabaseHost> {
    if (this.#current) return Promise.resolve(this.#current);
    if (this.#search) return this.#search;
    if (Date.now() < this.#retryAt && this.#lastError) return Promise.reject(this.#lastError);
    this.#search = this.#find().finally(() => (this.#search = undefined));
    return this.#search;
  }

  /** Checks a new session on `host`; throws NoServerError (and forgets the host) if it does not fit. */
  async admit(client: pg.ClientBase, host: DatabaseHost): Promise<void> {
    const state = await readServerState(client);
    const reason = refusal(state, this.address.sessionAttrs, this.timelines);
    if (reason !== undefined) {
      this.lost(host);
      this.#tell({ kind: 'refused', host: label(host), reason });
      throw new NoServerError(refusalText(label(host), reason, this.address.sessionAttrs));
    }
    noteTimeline(state, this.timelines);
  }

  /** A connection to `host` failed: the next one searches (one listed host: tries it again). */
  lost(host: DatabaseHost): void {
    if (this.address.hosts.length > 1 && this.#current === host) this.#current = undefined;
  }

  async #find(): Promise<DatabaseHost> {
    const started = Date.now();
    const states = await Promise.all(this.address.hosts.map((host) => probe(host)));
    const index = chooseServer(states, this.address.sessionAttrs, this.timelines);
    for (const state of states) if (state) noteTimeline(state, this.timelines);
    const ms = Date.now() - started;
    if (index === undefined) {
      this.#retryAt = Date.now() + BACKOFF_MS[Math.min(this.#failures++, BACKOFF_MS.length - 1)]!;
      const answered = states.filter(Boolean).length;
      this.#lastError = new NoServerError(
        `no listed Postgres server fits target_session_attrs=${this.address.sessionAttrs} ` +
          `(${answered} of ${this.address.hosts.length} answered); searching again`,
      );
      this.#tell({ kind: 'search', outcome: 'none', ms });
      throw this.#lastError;
    }
    const found = this.address.hosts[index]!;
    this.#failures = 0;
    this.#lastError = undefined;
    this.#current = found;
    this.#tell({ kind: 'search', outcome: 'found', ms, host: label(found) });
    return found;
  }

  #tell(event: LocatorEvent): void {
    for (const observer of this.#observers) observer(event);
  }
}

function refusalText(host: string, reason: 'read_only' | 'writable' | 'older_timeline', attrs: string): string {
  if (reason === 'read_only') return `the Postgres server at ${host} does not accept writes (a standby, or read-only); searching for the primary`;
  if (reason === 'older_timeline')
    return `the Postgres server at ${host} is on an older timeline than one this process has written to (an old primary); not used`;
  return `the Postgres server at ${host} accepts writes, and target_session_attrs=${attrs} asks for one that does not`;
}

/**
 * `ask` run on a session of its own to one listed server (whatever it is: no check, no locator),
 * or undefined when the server does not answer in time or the question fails.
 */
export async function askServer<T>(host: DatabaseHost, ask: (client: pg.Client) => Promise<T>): Promise<T | undefined> {
  const client = new pg.Client({
    connectionString: host.url,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
    application_name: 'rtm-probe',
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await ask(client);
  } catch {
    return undefined;
  } finally {
    void client.end().catch(() => {});
  }
}

/** What one server says of itself, or undefined when it does not answer in time. */
const probe = (host: DatabaseHost): Promise<ServerState | undefined> => askServer(host, readServerState);

/** One locator per URL in a process, so every pool and lock connection shares what it learnt. */
const locators = new Map<string, ServerLocator>();

export function locatorFor(url: string): ServerLocator {
  let locator = locators.get(url);
  if (!locator) {
    locator = new ServerLocator(parseDatabaseUrl(url));
    locators.set(url, locator);
  }
  return locator;
}

/**
 * A node-postgres Client that connects to its locator's server and is admitted before use. Made by
 * pg.Pool (`Client` option: createPool) and for sessions of their own (PartitionOwnership's lock
 * connection, scripts/ensure-database.ts); `connectionString` is the URL as configured.
 */
export class LocatingClient extends pg.Client {
  readonly #locator: ServerLocator;

  constructor(config?: pg.ClientConfig) {
    if (!config?.connectionString) throw new Error('LocatingClient needs a connectionString');
    const locator = locatorFor(config.connectionString);
    super({ ...config, connectionString: locator.address.hosts[0]!.url });
    this.#locator = locator;
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
  // biome-ignore lint/suspicious/noConfusingVoidType: pg.Pool's own overloads: a promise without a callback, nothing with one
  override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
    const done = this.#connect();
    if (!callback) return done;
    done.then(
      () => (callback as (err: null, c: pg.Client) => void)(null, this),
      (error: Error) => (callback as (err: Error) => void)(error),
    );
  }

  async #connect(): Promise<pg.Client> {
    const host = await this.#locator.target();
    if (this.#locator.address.hosts.length > 1) {
      // node-postgres connects to these (read at connect time)
      (this as { host: string }).host = host.host;
      (this as { port: number }).port = host.port;
    }
    try {
      await super.connect();
    } catch (error) {
      this.#locator.lost(host);
      // whatever the server said at connect time (not accepting connections, a role or database
      // it does not know: a promoted standby set up differently) leaves this process without a
      // server to write to: 503 and a new search, never a 500 for the request that met it
      if (isConnectionError(error)) throw error;
      throw new NoServerError(`cannot open a session on the Postgres server at ${label(host)}: ${(error as Error).message}`, { cause: error });
    }
    try {
      await this.#locator.admit(this, host);
    } catch (error) {
      if (!(error instanceof NoServerError)) this.#locator.lost(host);
      await this.end().catch(() => {});
      throw error;
    }
    return this;
  }
}
