/**
 * The one outbound HTTP call of the service. Guarantees:
 * - the URL passes the deploy-time policy again at send time (with the loopback switch as it is
 *   now, so a URL stored while loopback was allowed is refused once it is not);
 * - a host name is resolved at connect time (HostResolver: c-ares, never the thread pool) and the
 *   socket goes only to an address that passes the same policy (a name that resolves to any
 *   refused address is refused as a whole, so DNS rebinding cannot reach a private address);
 *   `localhost` may reach loopback only, and only when loopback is allowed;
 * - redirects are never followed (a 3xx is a failed attempt);
 * - the whole attempt (connect, headers) ends at the deadline of its group of sends (SendDeadline:
 *   one timer per chunk of sends, not one per request), and undici's own connect and headers
 *   timers back it up; nothing but a 2xx succeeds;
 * - connections are kept per receiving origin (keep-alive, up to 512 each), and an https receiver
 *   that offers HTTP/2 gets it;
 * - a request whose kept-alive connection was reset before any answer is sent once more at once;
 * - a failure is one word of a fixed vocabulary (failure-class.ts); no byte of the response body
 *   is kept (it is read off the wire and dropped, up to 64 KiB; past that the connection is
 *   closed), and no library message leaves this file.
 *
 * Per delivery this is one undici `dispatch` with a handler of our own (Attempt) rather than
 * `request`: no response body stream, no promise inside the client, no abort listener per
 * request. Each URL's origin and path are parsed once, and every request of the service has the
 * same shape: POST, a byte body, and one flat header list.
 */
import { Agent, type Dispatcher } from 'undici';
import { classifyError, redactWebhookUrl, statusFailure, type FailureClass } from '@rtm/webhooks';
import { checkWebhookUrl, vettedLookup, type HostResolver } from '@rtm/rules';

export interface SendResult {
  ok: boolean;
  statusCode?: number;
  error?: FailureClass;
  durationMs: number;
}

/** URLs whose verdict is kept (the policy is a pure function of the URL and the loopback switch). */
const VERDICTS_KEPT = 10_000;
/** Response body bytes read off the wire (to keep the connection) before the connection is closed instead. */
const BODY_READ_LIMIT = 64 * 1024;
/** The headers every delivery carries before its signatures. */
const FIXED_HEADERS = ['content-type', 'application/json', 'user-agent', 'rtm-webhooks/1'] as const;

interface Target {
  origin: string;
  path: string;
}

/**
 * The deadline of a group of sends (the deliverer's chunk): when it expires, every send of the
 * group still out is aborted (a `timeout`), and a send started after it ends at once.
 */
export class SendDeadline {
  readonly #out = new Set<Attempt>();
  readonly #timer: NodeJS.Timeout;
  readonly #ms: number;
  #expired = false;

  constructor(ms: number) {
    this.#ms = ms;
    this.#timer = setTimeout(() => this.#expire(), ms);
  }

  get expired(): boolean {
    return this.#expired;
  }

  /** Ends the timer (every send of the group ended). */
  clear(): void {
    clearTimeout(this.#timer);
  }

  /** The error an expired deadline aborts with. */
  reason(): Error {
    return new DOMException(`timed out after ${this.#ms} ms`, 'TimeoutError');
  }

  /** @internal */ track(attempt: Attempt): void {
    this.#out.add(attempt);
  }

  /** @internal */ untrack(attempt: Attempt): void {
    this.#out.delete(attempt);
  }

  #expire(): void {
    this.#expired = true;
    const reason = this.reason();
    for (const attempt of this.#out) attempt.abort(reason);
    this.#out.clear();
  }
}

/** One request on the wire, as undici's dispatch handler: the answer's status is all it keeps. */
class Attempt implements Dispatcher.DispatchHandler {
  #abort: ((reason: Error) => void) | null = null;
  #status = 0;
  #bytes = 0;
  #done = false;

  readonly sender: WebhookSender;
  readonly options: Dispatcher.DispatchOptions;
  readonly deadline: SendDeadline | undefined;
  readonly started: number;
  readonly first: boolean;
  readonly resolve: (result: SendResult) => void;

  constructor(
    sender: WebhookSender,
    options: Dispatcher.DispatchOptions,
    deadline: SendDeadline | undefined,
    started: number,
    first: boolean,
    resolve: (result: SendResult) => void,
  ) {
    this.sender = sender;
    this.options = options;
    this.deadline = deadline;
    this.started = started;
    this.first = first;
    this.resolve = resolve;
  }

  abort(reason: Error): void {
    this.#abort?.(reason);
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.deadline?.expired) return abort(this.deadline.reason());
    this.#abort = abort;
    this.deadline?.track(this);
  }

  onHeaders(statusCode: number): boolean {
    this.#status = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#bytes += chunk.length;
    if (this.#bytes > BODY_READ_LIMIT) this.#abort?.(new Error('response body over the read limit'));
    return true;
  }

  onComplete(): void {
    this.#settle();
  }

  onError(error: Error): void {
    // an error after the answer's head (a body cut short, or too long to read): the status decides
    if (this.#status !== 0) return this.#settle();
    if (this.#done) return;
    this.#done = true;
    this.deadline?.untrack(this);
    const failure = classifyError(error);
    // A kept-alive connection that the receiver closes (its idle timeout) just as a request goes
    // out on it ends with no answer at all; after a lull every idle connection of an origin may
    // be in that state at once, and each such request would wait for the next step of the
    // schedule (30 s). So a reset is tried once more at once, on the pool's next connection: a
    // receiver that did get the first one sees a repeat, as it may after any failed attempt, and
    // dedupes on the event id.
    if (failure === 'reset' && this.first && !this.deadline?.expired) return this.sender.resend(this);
    this.resolve({ ok: false, error: failure, durationMs: Math.round(performance.now() - this.started) });
  }

  #settle(): void {
    if (this.#done) return;
    this.#done = true;
    this.deadline?.untrack(this);
    const status = this.#status;
    const durationMs = Math.round(performance.now() - this.started);
    if (status >= 200 && status < 300) this.resolve({ ok: true, statusCode: status, durationMs });
    else this.resolve({ ok: false, statusCode: status, error: statusFailure(status), durationMs });
  }
}

export class WebhookSender {
  readonly #agent: Agent;
  readonly #allowLoopback: boolean;
  /** Each URL's verdict and request target, parsed once (every delivery of an endpoint has the same URL). */
  readonly #targets = new Map<string, Target | null>();
  #resent = 0;

  readonly #refused: ((url: string, reason: string) => void) | undefined;

  /**
   * `refused`: told once per URL (while its verdict is kept) that this process's URL policy
   * refuses it at send time: a dispatcher whose settings differ from its peers' (loopback refused
   * here, allowed where the URL was deployed) would otherwise hold its partitions' deliveries to
   * that URL without a word.
   */
  constructor(options: { timeoutMs: number; allowLoopback: boolean; resolver: HostResolver; refused?: (url: string, reason: string) => void }) {
    this.#allowLoopback = options.allowLoopback;
    this.#refused = options.refused;
    this.#agent = new Agent({
      connect: { lookup: vettedLookup(options.resolver, options.allowLoopback) as never, timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
      connections: 512,
      // HTTP/2 when an https receiver offers it (ALPN): one connection carries many deliveries
      allowH2: true,
    });
  }

  /**
   * POSTs `body` to `url` with `signatures` (a flat `[name, value, …]` list: deliverySignatures)
   * and resolves with the result; never rejects. `deadline`: the group's (SendDeadline).
   */
  send(url: string, body: Uint8Array | string, signatures: readonly string[], deadline?: SendDeadline): Promise<SendResult> {
    const started = performance.now();
    const target = this.#target(url);
    if (!target) return Promise.resolve({ ok: false, error: 'blocked_address', durationMs: 0 });
    if (deadline?.expired) return Promise.resolve({ ok: false, error: 'timeout', durationMs: 0 });
    const headers = [...FIXED_HEADERS, ...signatures];
    const options: Dispatcher.DispatchOptions = { origin: target.origin, path: target.path, method: 'POST', body, headers };
    return new Promise((resolve) => this.#dispatch(new Attempt(this, options, deadline, started, true, resolve)));
  }

  /** @internal The attempt's connection was reset before any answer: once more, at once. */
  resend(attempt: Attempt): void {
    this.#resent++;
    this.#dispatch(new Attempt(this, attempt.options, attempt.deadline, attempt.started, false, attempt.resolve));
  }

  #dispatch(attempt: Attempt): void {
    try {
      this.#agent.dispatch(attempt.options, attempt);
    } catch (error) {
      // refused synchronously (the agent closed, an option it rejects): the attempt's result
      attempt.onError(error as Error);
    }
  }

  /** Requests sent again at once after a reset (see Attempt.onError). */
  get resent(): number {
    return this.#resent;
  }

  /** The URL's origin and path when the policy allows it, null when it refuses it. */
  #target(url: string): Target | null {
    let target = this.#targets.get(url);
    if (target === undefined) {
      const verdict = checkWebhookUrl(url, { allowLoopback: this.#allowLoopback });
      target = verdict.ok ? { origin: verdict.url.origin, path: `${verdict.url.pathname}${verdict.url.search}` } : null;
      if (!verdict.ok) this.#refused?.(redactWebhookUrl(url), verdict.reason);
      if (this.#targets.size >= VERDICTS_KEPT) this.#targets.clear();
      this.#targets.set(url, target);
    }
    return target;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
