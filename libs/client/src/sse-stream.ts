import { keepFrameText } from './delta.ts';
import { Timer, type Clock } from './clock.ts';
import { parseRetryAfter } from './http.ts';
import { readEventStream, SseParser, type ByteStream } from './sse-parser.ts';
import type { FetchLike } from './types.ts';

/** `connected` must arrive within this time of asking for the stream (as on the socket). */
export const STREAM_HANDSHAKE_MS = 15_000;
/**
 * The server sends a `: ping` comment every 15 s: a stream silent for three of them is dead (a
 * half-open TCP connection never ends by itself).
 */
export const STREAM_SILENCE_MS = 45_000;

/**
 * One channel on a stream and where its replay starts, as the `channels` query says it: after
 * `since` (`~seq`), else `rewind` back (`~rewind:<N or duration>`), else live.
 */
export interface StreamChannel {
  channelId: string;
  since: number | undefined;
  rewind?: number | string | undefined;
}

export interface StreamHost {
  /** A frame of the stream (the `data` of one event), as /v1/connect would send it. */
  frame(frame: Record<string, unknown>): void;
  /**
   * The stream is over, told once (never after `close()`): `code` is the socket close code it
   * amounts to (the `closed` frame's, or 4400/4401/4403/4429/4503 for a refusal before the
   * stream, 1006 for a network failure or a stream that ended without `closed`).
   */
  ended(code: number, reason: string, retryAfter?: number): void;
}

/** `GET /v1/events`'s `channels` query: `a,b~12,c~rewind:2m`. */
export function channelsQuery(channels: readonly StreamChannel[]): string {
  return channels
    .map((c) => (c.since !== undefined ? `${c.channelId}~${c.since}` : c.rewind !== undefined ? `${c.channelId}~rewind:${c.rewind}` : c.channelId))
    .join(',');
}

/**
 * One `GET /v1/events` request: its frames go to the host until it ends or is closed. Frames are
 * JSON objects (a `data` that is not one is skipped); a `closed` frame ends the stream with its
 * code at once.
 */
export class EventStream {
  readonly channels: readonly StreamChannel[];
  readonly #host: StreamHost;
  readonly #watchdog: Timer;
  readonly #abort: { abort(): void; signal: unknown } | undefined;
  #over = false;
  #connected = false;

  constructor(
    options: { baseUrl: string; fetch: FetchLike; clock: Clock; token: string; channels: readonly StreamChannel[]; inbox?: string | undefined },
    host: StreamHost,
  ) {
    this.channels = options.channels;
    this.#host = host;
    this.#watchdog = new Timer(options.clock);
    const Controller = (globalThis as { AbortController?: new () => { abort(): void; signal: unknown } }).AbortController;
    this.#abort = Controller ? new Controller() : undefined;
    // the inbox (`1`, or the last notification id) may ride a stream without channels
    const inbox = options.inbox === undefined ? '' : `&inbox=${encodeURIComponent(options.inbox)}`;
    const url = `${options.baseUrl}/v1/events?channels=${encodeURIComponent(channelsQuery(options.channels))}${inbox}`;
    this.#watchdog.set(STREAM_HANDSHAKE_MS, () => this.#end(1006, 'no connected frame on the event stream in time'));
    void this.#run(options.fetch, url, options.token);
  }

  /** Stops the stream; the host hears nothing more from it. */
  close(): void {
    if (this.#over) return;
    this.#over = true;
    this.#watchdog.clear();
    this.#abort?.abort();
  }

  async #run(fetchImpl: FetchLike, url: string, token: string): Promise<void> {
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      res = await fetchImpl(url, {
        method: 'GET',
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        ...(this.#abort ? { signal: this.#abort.signal } : {}),
      });
    } catch (error) {
      return this.#end(1006, `the event stream could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.#over) return;
    if (res.status !== 200) return this.#refused(res);
    const type = res.headers.get('content-type') ?? '';
    const body = res.body as ByteStream | null | undefined;
    if (!type.toLowerCase().startsWith('text/event-stream')) {
      return this.#end(1006, `the event stream answered ${type || 'no content type'}, not text/event-stream (a proxy in the way?)`);
    }
    if (!body || typeof body.getReader !== 'function') {
      return this.#end(4400, 'fetch gave no streaming body: Server-Sent Events need a fetch whose response has body.getReader()');
    }
    const parser = new SseParser({ event: (event) => this.#data(event.data) });
    try {
      await readEventStream(
        body,
        parser,
        () => this.#alive(),
        () => this.#over,
      );
    } catch (error) {
      return this.#end(1006, `the event stream broke: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.#end(1006, 'the event stream ended without a closed frame');
  }

  /** Any bytes (a frame or the server's `: ping`) prove the stream alive. */
  #alive(): void {
    if (this.#over || !this.#connected) return;
    this.#watchdog.set(STREAM_SILENCE_MS, () => this.#end(1006, `nothing on the event stream for ${STREAM_SILENCE_MS / 1000} s`));
  }

  #data(data: string): void {
    if (this.#over) return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return;
    const f = frame as Record<string, unknown>;
    keepFrameText(f, data);
    if (f.op === 'closed') {
      const code = typeof f.code === 'number' ? f.code : 1006;
      return this.#end(code, typeof f.reason === 'string' ? f.reason : '');
    }
    if (f.op === 'connected' && !this.#connected) {
      this.#connected = true;
      this.#alive();
    }
    this.#host.frame(f);
  }

  async #refused(res: Awaited<ReturnType<FetchLike>>): Promise<void> {
    const refusal = await refusalOf(res, 'GET /v1/events');
    if (!this.#over) this.#end(refusal.code, refusal.reason, refusal.retryAfter);
  }

  #end(code: number, reason: string, retryAfter?: number): void {
    if (this.#over) return;
    this.close();
    this.#host.ended(code, reason, retryAfter);
  }
}

/** The close code of /v1/connect that a refused request amounts to; anything else is 4503 (try again later). */
const CLOSE_CODE_OF_STATUS: Record<number, number> = { 400: 4400, 401: 4401, 403: 4403, 429: 4429 };

/**
 * A refusal of a request that stands for the connection (`GET /v1/events`, `GET /v1/me`): the
 * socket close code it amounts to, the JSON envelope's code and reason, and a 429's retry-after.
 */
export async function refusalOf(res: Awaited<ReturnType<FetchLike>>, what: string): Promise<{ code: number; reason: string; retryAfter?: number }> {
  let envelope: { code?: unknown; reason?: unknown; retryAfter?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(await res.text());
    if (parsed !== null && typeof parsed === 'object') envelope = parsed as typeof envelope;
  } catch {
    // not JSON: the status says enough
  }
  const code = typeof envelope.code === 'string' ? envelope.code : `http_${res.status}`;
  const reason = `${code}${typeof envelope.reason === 'string' ? `: ${envelope.reason}` : ''} (${what} answered ${res.status})`;
  const retryAfter = parseRetryAfter(res.headers.get('retry-after')) ?? (typeof envelope.retryAfter === 'number' ? envelope.retryAfter : undefined);
  return { code: CLOSE_CODE_OF_STATUS[res.status] ?? 4503, reason, ...(retryAfter === undefined ? {} : { retryAfter }) };
}
