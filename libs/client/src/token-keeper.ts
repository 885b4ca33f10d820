import { Backoff } from './backoff.ts';
import { Timer, type Clock } from './clock.ts';
import { asRtmError, RtmError } from './errors.ts';
import { renewalDelayMs, tokenExpiryMs, tokenLifetimeMs } from './token.ts';

/** Renewal retries after a failed getToken or a refused `auth`. */
const RENEW_RETRY_INITIAL_MS = 1_000;
const RENEW_RETRY_MAX_MS = 30_000;

/** What the token keeper needs from the connection. */
export interface TokenHost {
  /** An id of the current connection: a renewal started on another one is dropped. */
  connection(): number;
  isConnected(): boolean;
  /** Sends `{op:"auth", token}` on the connection; told the `authenticated` frame, or the `error` frame's error. */
  authenticate(token: string, answered: (frame: Record<string, unknown>) => void, refused: (error: RtmError) => void): void;
  reportError(error: RtmError): void;
}

/**
 * The token's life on a client: fetched from the app's `getToken` (one call at a time), kept
 * while it is good, used to connect and for HTTP calls, and renewed in place on the open
 * connection a lead time before it expires (token.ts). A renewal that fails retries with backoff
 * until the server's 4401 ends the connection, which then connects with a new token.
 */
export class TokenKeeper {
  readonly #getToken: () => string | Promise<string>;
  readonly #clock: Clock;
  readonly #host: TokenHost;
  readonly #renewBackoff: Backoff;
  readonly #renewTimer: Timer;
  #token: string | undefined;
  #expiresAt: number | undefined;
  /** The current token came from getToken for this attempt (a 4401 then means the token is bad). */
  #fresh = false;
  #stale = false;
  #request: Promise<string> | undefined;

  constructor(getToken: () => string | Promise<string>, clock: Clock, random: () => number, host: TokenHost) {
    this.#getToken = getToken;
    this.#clock = clock;
    this.#host = host;
    this.#renewBackoff = new Backoff(RENEW_RETRY_INITIAL_MS, RENEW_RETRY_MAX_MS, random);
    this.#renewTimer = new Timer(clock);
  }

  /** The token of the last attempt came from getToken (not remembered). */
  get fresh(): boolean {
    return this.#fresh;
  }

  /** The server refused the token (4401): the next attempt fetches a new one. */
  refused(): void {
    this.#stale = true;
  }

  /** The token to connect with: the current one while it is good, else a new one. */
  async forConnect(): Promise<string> {
    const now = this.#clock.now();
    const usable = this.#token !== undefined && !this.#stale && (this.#expiresAt === undefined || this.#expiresAt - now > 2 * RENEW_RETRY_INITIAL_MS);
    if (usable) {
      this.#fresh = false;
      return this.#token!;
    }
    const token = await this.#fetch();
    this.#adopt(token);
    this.#fresh = true;
    return token;
  }

  /** The token for an HTTP call; `fresh` after the server refused the one sent. */
  async forHttp(fresh: boolean): Promise<string> {
    if (!fresh && this.#token !== undefined && !this.#stale) {
      if (this.#expiresAt === undefined || this.#expiresAt > this.#clock.now()) return this.#token;
    }
    const token = await this.#fetch();
    if (!this.#host.isConnected()) this.#adopt(token);
    return token;
  }

  /** The connection is up; `expiresAt` is the server's word (`connected`), NaN when it said nothing. */
  connected(expiresAt: number): void {
    if (!Number.isNaN(expiresAt)) this.#expiresAt = expiresAt;
    this.#scheduleRenewal();
  }

  connectionLost(): void {
    this.#renewTimer.clear();
  }

  /** getToken, one call at a time. */
  #fetch(): Promise<string> {
    if (this.#request) return this.#request;
    const request = Promise.resolve()
      .then(() => this.#getToken())
      .then((token) => {
        if (typeof token !== 'string' || token.length === 0) throw new RtmError('unauthorized', 'getToken returned no token');
        return token;
      });
    this.#request = request;
    const done = () => {
      if (this.#request === request) this.#request = undefined;
    };
    request.then(done, done);
    return request;
  }

  #adopt(token: string): void {
    this.#token = token;
    this.#stale = false;
    this.#expiresAt = tokenExpiryMs(token);
  }

  #scheduleRenewal(): void {
    if (this.#expiresAt === undefined) return;
    const lifetime = this.#token === undefined ? undefined : tokenLifetimeMs(this.#token);
    const delay = renewalDelayMs(this.#expiresAt, this.#clock.now(), lifetime);
    this.#renewTimer.set(delay, () => void this.#renew());
  }

  /** Renews the token in place with `{op:"auth"}`; failures retry with backoff until the server's 4401. */
  async #renew(): Promise<void> {
    const connection = this.#host.connection();
    const current = () => connection === this.#host.connection() && this.#host.isConnected();
    const retry = (error: RtmError) => {
      if (!current()) return;
      this.#host.reportError(error);
      this.#renewTimer.set(this.#renewBackoff.next(), () => void this.#renew());
    };
    let token: string;
    try {
      token = await this.#fetch();
    } catch (error) {
      retry(asRtmError(error, 'unauthorized'));
      return;
    }
    if (!current()) {
      // the connection went meanwhile: the next one starts with this token
      this.#adopt(token);
      return;
    }
    this.#host.authenticate(token, (frame) => this.#renewed(token, frame, retry), retry);
  }

  #renewed(token: string, frame: Record<string, unknown>, retry: (error: RtmError) => void): void {
    const expiresAt = typeof frame.expiresAt === 'string' ? Date.parse(frame.expiresAt) : NaN;
    const previous = this.#expiresAt;
    this.#token = token;
    this.#stale = false;
    if (!Number.isNaN(expiresAt)) this.#expiresAt = expiresAt;
    if (Number.isNaN(expiresAt) || (previous !== undefined && expiresAt <= previous)) {
      retry(new RtmError('unauthorized', 'getToken returned a token that does not expire later than the current one'));
      return;
    }
    this.#renewBackoff.reset();
    this.#scheduleRenewal();
  }
}
