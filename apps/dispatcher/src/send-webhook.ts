/**
 * The one outbound HTTP call of the service. Guarantees:
 * - the URL passes the deploy-time policy again at send time;
 * - a host name is resolved at connect time and the socket goes only to an address that passes
 *   the same policy (a name that resolves to any refused address is refused as a whole, so DNS
 *   rebinding cannot reach a private address); `localhost` may reach loopback only;
 * - redirects are never followed (a 3xx is a failed attempt);
 * - the whole attempt (connect, headers) ends at the deadline the caller's signal carries (one
 *   signal per chunk of sends: cheaper than one per request), and undici's own connect and
 *   headers timers back it up; nothing but a 2xx succeeds.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { addressRefusal, checkWebhookUrl, isLoopbackAddress, SIGNATURE_HEADER } from '@rtm/webhooks';

export interface SendResult {
  ok: boolean;
  statusCode?: number;
  error?: string;
  durationMs: number;
}

const MAX_ERROR_BYTES = 1024;

/** Cuts `text` to at most 1 KiB of UTF-8 without splitting a character. */
export function clipError(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= MAX_ERROR_BYTES) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > MAX_ERROR_BYTES - 3) break;
    out += char;
    bytes += size;
  }
  return `${out}...`;
}

type LookupOptions = { family?: number | string; hints?: number; all?: boolean };
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `net.connect`'s lookup, filtered through the address policy. */
function vettedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
  dnsLookup(hostname, { all: true, family, hints: options.hints }, (error, addresses) => {
    if (error) return callback(error, []);
    const local = hostname === 'localhost';
    let refusal: string | null = null;
    const allowed: LookupAddress[] = [];
    for (const entry of addresses) {
      const why = local ? (isLoopbackAddress(entry.address) ? null : 'not a loopback address') : addressRefusal(entry.address);
      if (why) refusal ??= `${hostname} resolves to ${entry.address}, ${why}`;
      else allowed.push(entry);
    }
    if (refusal !== null || allowed.length === 0) {
      const refused = Object.assign(new Error(refusal ?? `${hostname} has no address`), { code: 'EADDRNOTALLOWED' });
      return callback(refused, []);
    }
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}

export class WebhookSender {
  readonly #agent: Agent;
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#agent = new Agent({
      connect: { lookup: vettedLookup as never, timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
      connections: 512,
    });
  }

  /** `signal` aborts the attempt (the caller's deadline, at most the timeout after the send starts). */
  async send(url: string, body: string, signature: string, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const verdict = checkWebhookUrl(url);
    if (!verdict.ok) return { ok: false, error: clipError(`refused: ${verdict.reason}`), durationMs: 0 };
    try {
      const response = await request(verdict.url, {
        method: 'POST',
        dispatcher: this.#agent,
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'rtm-webhooks/1',
          [SIGNATURE_HEADER]: signature,
        },
        signal,
      });
      const status = response.statusCode;
      if (status >= 200 && status < 300) {
        await response.body.dump().catch(() => {});
        return { ok: true, statusCode: status, durationMs: elapsed() };
      }
      let text = '';
      try {
        for await (const chunk of response.body) {
          text += (chunk as Buffer).toString('utf8');
          if (text.length >= 512) break;
        }
      } catch {
        // the body is only decoration for lastError
      }
      const location = status >= 300 && status < 400 ? ` (redirect to ${String(response.headers.location ?? '?')} not followed)` : '';
      const error = `HTTP ${status}${location}${text ? `: ${text.slice(0, 512)}` : ''}`;
      return { ok: false, statusCode: status, error: clipError(error), durationMs: elapsed() };
    } catch (error) {
      return { ok: false, error: clipError(describe(error, this.#timeoutMs)), durationMs: elapsed() };
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

function describe(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_ABORTED' || /Timeout/i.test(err.code ?? '')) {
    return `timed out after ${timeoutMs} ms (${err.code ?? err.name})`;
  }
  const cause = err.cause as { code?: string; message?: string } | undefined;
  const code = err.code ?? cause?.code;
  const message = err.message ?? String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
