/**
 * Requests with one reply subscription per connection and no per-request objects beyond a map
 * entry. nats.js's own `request()` costs, per call, a timer, a promise it rejects on success
 * (building an error, with its stack, that nobody sees) and a subscription-table entry: about a
 * tenth of the gateway's CPU on the publish path. Guarantees, the same as nats.js's:
 * - the promise resolves with the reply, or rejects with a NatsError whose code is
 *   `NoResponders` (nobody subscribes to the subject: the request was not delivered) or
 *   `Timeout` (no reply in time: it may have been processed);
 * - a reply that comes after its time-out is dropped;
 * - `close()` rejects everything still waiting (code `Cancelled`).
 * - the connection losing its server (a `disconnect` status) rejects everything waiting at once
 *   with ConnectionLostError (the outcome is unknown): their replies would have come back through
 *   that server, so nobody waits out a time-out for them. One listener for the connection, not
 *   one per request.
 * Time-outs are checked by one sweep every SWEEP_MS while anything waits, so a request times
 * out up to SWEEP_MS late.
 */
import { createInbox, ErrorCode, NatsError, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';
import { onDisconnect } from './disconnect.ts';

const SWEEP_MS = 25;

/** The connection lost its server with the request in flight (outcome unknown). */
export class ConnectionLostError extends Error {
  override name = 'ConnectionLostError';
}

/** How a request ends: `error` set, or the reply. */
export type RequestCallback = (error: NatsError | ConnectionLostError | undefined, msg: Msg | undefined) => void;

interface Waiting {
  done: RequestCallback;
  expiresAt: number;
}

export class Requester {
  readonly #nc: NatsConnection;
  readonly #prefix: string;
  readonly #waiting = new Map<string, Waiting>();
  #subscription: Subscription | undefined;
  #sequence = 0;
  #sweep: NodeJS.Timeout | undefined;
  #offDisconnect: () => void = () => {};

  constructor(nc: NatsConnection) {
    this.#nc = nc;
    this.#prefix = `${createInbox()}.`;
  }

  /** How many requests wait for a reply. */
  get waiting(): number {
    return this.#waiting.size;
  }

  request(subject: string, data: Uint8Array, options: { timeoutMs: number; headers?: MsgHdrs }): Promise<Msg> {
    return new Promise((resolve, reject) => this.send(subject, data, options, (error, msg) => (error ? reject(error) : resolve(msg!))));
  }

  /**
   * `request` with a callback, called exactly once (unless the request is abandoned): no promise
   * per request on hot paths. Returns the request's token, for `abandon`.
   */
  send(subject: string, data: Uint8Array, options: { timeoutMs: number; headers?: MsgHdrs }, done: RequestCallback): string {
    // subscribed at the first request, so building one has no side effect
    if (!this.#subscription) {
      this.#subscription = this.#nc.subscribe(`${this.#prefix}*`, { callback: (error, msg) => error || this.#answer(msg) });
      this.#offDisconnect = onDisconnect(this.#nc, () => this.#lost());
    }
    const token = (this.#sequence++).toString(36);
    this.#waiting.set(token, { done, expiresAt: Date.now() + options.timeoutMs });
    this.#sweep ??= setInterval(() => this.#expire(), SWEEP_MS);
    try {
      this.#nc.publish(subject, data, { reply: this.#prefix + token, ...(options.headers && { headers: options.headers }) });
    } catch (error) {
      this.#waiting.delete(token);
      done(error as NatsError, undefined);
    }
    return token;
  }

  /**
   * Stops waiting for the request `token` without calling its callback (its caller has ended it
   * otherwise: the responder is known to be gone); a reply that still comes is dropped.
   */
  abandon(token: string): void {
    if (this.#waiting.delete(token) && this.#waiting.size === 0) this.#stopSweep();
  }

  close(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
    this.#offDisconnect();
    this.#settleAll(NatsError.errorForCode(ErrorCode.Cancelled));
  }

  #lost(): void {
    this.#settleAll(new ConnectionLostError('the connection to the bus was lost'));
  }

  #settleAll(error: NatsError | ConnectionLostError): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    this.#stopSweep();
    for (const w of waiting) w.done(error, undefined);
  }

  #answer(msg: Msg): void {
    const token = msg.subject.slice(this.#prefix.length);
    const waiting = this.#waiting.get(token);
    if (!waiting) return;
    this.#waiting.delete(token);
    if (this.#waiting.size === 0) this.#stopSweep();
    // the server answers 503 itself when nothing subscribes to the subject
    if (msg.headers?.hasError && msg.headers.code === 503) waiting.done(NatsError.errorForCode(ErrorCode.NoResponders), undefined);
    else waiting.done(undefined, msg);
  }

  #expire(): void {
    const now = Date.now();
    for (const [token, waiting] of this.#waiting) {
      if (waiting.expiresAt > now) continue;
      this.#waiting.delete(token);
      waiting.done(NatsError.errorForCode(ErrorCode.Timeout), undefined);
    }
    if (this.#waiting.size === 0) this.#stopSweep();
  }

  #stopSweep(): void {
    clearInterval(this.#sweep);
    this.#sweep = undefined;
  }
}
