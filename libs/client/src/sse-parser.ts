/**
 * A Server-Sent Events parser for a body read in chunks (`fetch`'s streaming body): the event
 * stream format of the HTML standard, fed text as it arrives, wherever the chunks happen to be cut.
 *
 * - Lines end with CRLF, LF or CR; a CR at the end of one chunk and an LF at the start of the next
 *   are one line end.
 * - `data:` lines accumulate (joined with LF); an empty line dispatches the event, unless it has no
 *   data. `id:` sets the last event id (kept across events), `event:` the event's type, `retry:`
 *   (digits only) the reconnection time. A line starting with `:` is a comment (the server's
 *   keep-alive `: ping`). Unknown fields are ignored; one space after the colon is dropped.
 * - An event cut off by the end of the stream is discarded.
 */
export interface SseEvent {
  /** The last event id seen so far (an event without `id:` keeps the previous one). */
  id: string;
  /** `event:` of the event, `message` without one. */
  type: string;
  data: string;
}

export interface SseHandlers {
  event(event: SseEvent): void;
  /** A comment line's text (without the colon). */
  comment?(text: string): void;
  /** A `retry:` line's milliseconds. */
  retry?(ms: number): void;
}

export class SseParser {
  readonly #handlers: SseHandlers;
  /** Text after the last complete line. */
  #partial = '';
  /** The previous chunk ended with CR: an LF starting this one belongs to it. */
  #afterCR = false;
  #first = true;
  #data: string[] = [];
  #type = '';
  #lastId = '';

  constructor(handlers: SseHandlers) {
    this.#handlers = handlers;
  }

  /** Text of the stream, in order. */
  push(chunk: string): void {
    if (chunk.length === 0) return;
    let text = chunk;
    if (this.#first) {
      this.#first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.#afterCR && text.charCodeAt(0) === 0x0a) start = 1;
    this.#afterCR = false;
    let lineStart = start;
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 0x0a && code !== 0x0d) continue;
      const line = this.#partial + text.slice(lineStart, i);
      this.#partial = '';
      if (code === 0x0d) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 0x0a) i++;
        } else {
          this.#afterCR = true;
        }
      }
      lineStart = i + 1;
      this.#line(line);
    }
    this.#partial += text.slice(lineStart);
  }

  /** The stream ended: an event not closed by an empty line is dropped. */
  end(): void {
    this.#partial = '';
    this.#data = [];
    this.#type = '';
  }

  #line(line: string): void {
    if (line.length === 0) return this.#dispatch();
    if (line.charCodeAt(0) === 0x3a) {
      this.#handlers.comment?.(line.slice(1).replace(/^ /, ''));
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        return;
      case 'event':
        this.#type = value;
        return;
      case 'id':
        if (!value.includes('\u0000')) this.#lastId = value;
        return;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.#handlers.retry?.(Number(value));
        return;
      default:
        return;
    }
  }

  #dispatch(): void {
    const data = this.#data;
    const type = this.#type;
    this.#data = [];
    this.#type = '';
    if (data.length === 0) return;
    this.#handlers.event({ id: this.#lastId, type: type || 'message', data: data.join('\n') });
  }
}

/** What the SDK needs of a streaming body: a reader of byte chunks. */
export interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> };
}

/**
 * Reads `body` to its end into `parser`, decoding UTF-8 across chunk boundaries; `chunk` is told
 * of every chunk that arrives (data or not), for liveness. Resolves when the body ends, rejects
 * when reading fails (an aborted request included).
 */
export async function readEventStream(body: ByteStream, parser: SseParser, chunk: () => void, stopped: () => boolean): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (stopped()) return;
      if (done) break;
      chunk();
      if (value && value.byteLength > 0) parser.push(decoder.decode(value, { stream: true }));
      if (stopped()) return;
    }
    parser.push(decoder.decode());
    parser.end();
  } finally {
    if (stopped()) reader.cancel().catch(() => {});
  }
}
