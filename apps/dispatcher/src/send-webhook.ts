/**
 * The one outbound HTTP call of the service. Guarantees:
 * - the URL passes the deploy-time policy again at send time (with the loopback switch as it is
 *   now, so a URL stored while loopback was allowed is refused once it is not);
 * - a host name is resolved at connect time (HostResolver: c-ares, never the thread pool) and the
 *   socket goes only to an address that passes the same policy (a name that resolves to any
 *   refused address is refused as a whole, so DNS rebinding cannot reach a private address);
 *   `localhost` may reach loopback only, and only when loopback is allowed;
 * - redirects are never followed (a 3xx is a failed attempt);
 * - the whole attempt (connect, headers) ends at the deadline the caller's signal carries (one
 *   signal per chunk of sends: cheaper than one per request), and undici's own connect and
 *   headers timers back it up; nothing but a 2xx succeeds;
 * - connections are kept per receiving origin (keep-alive, up to 512 each), and an https receiver
 *   that offers HTTP/2 gets it;
 * - a request whose kept-alive connection was reset before any answer is sent once more at once;
 * - a failure is one word of a fixed vocabulary (failure-class.ts); no byte of the response body
 *   is read into memory or stored, and no library message leaves this file.
 */
import { Agent } from 'undici';
import { checkWebhookUrl, classifyError, redactWebhookUrl, statusFailure, vettedLookup, type FailureClass, type HostResolver } from '@rtm/webhooks';

export interface SendResult {
  ok: boolean;
  statusCode?: number;
  error?: FailureClass;
  durationMs: number;
}

/** URLs whose verdict is kept (the policy is a pure function of the URL and the loopback switch). */
const VERDICTS_KEPT = 10_000;

export class WebhookSender {
  readonly #agent: Agent;
  readonly #allowLoopback: boolean;
  /** Each URL's verdict and request target, parsed once (every delivery of an endpoint has the same URL). */
  readonly #targets = new Map<string, { origin: string; path: string } | null>();
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

  /** `signal` aborts the attempt (the caller's deadline, at most the timeout after the send starts). */
  /** `signatures`: the signature headers (`service-signature` and the Standard Webhooks three). */
  async send(url: string, body: string, signatures: Record<string, string>, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = this.#target(url);
    if (!target) return { ok: false, error: 'blocked_address', durationMs: 0 };
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.#agent.request({
          origin: target.origin,
          path: target.path,
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'rtm-webhooks/1',
            ...signatures,
          },
          signal,
        });
        const status = response.statusCode;
        // the body is never kept: read off the wire (to reuse the connection) up to a bound, or dropped
        await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
        if (status >= 200 && status < 300) return { ok: true, statusCode: status, durationMs: elapsed() };
        return { ok: false, statusCode: status, error: statusFailure(status), durationMs: elapsed() };
      } catch (error) {
        const failure = classifyError(error);
        // A kept-alive connection that the receiver closes (its idle timeout) just as a request
        // goes out on it ends with no answer at all; after a lull every idle connection of an
        // origin may be in that state at once, and each such request would wait for the next
        // step of the schedule (30 s). So a reset is tried once more at once, on the pool's
        // next connection: a receiver that did get the first one sees a repeat, as it may after
        // any failed attempt, and dedupes on the event id.
        if (failure === 'reset' && attempt === 1 && !signal?.aborted) {
          this.#resent++;
          continue;
        }
        return { ok: false, error: failure, durationMs: elapsed() };
      }
    }
  }

  /** Requests sent again at once after a reset (see `send`). */
  get resent(): number {
    return this.#resent;
  }

  /** The URL's origin and path when the policy allows it, null when it refuses it. */
  #target(url: string): { origin: string; path: string } | null {
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
