/**
 * Delta-compressed messages (`subscribe(listener, {delta: "fossil"})`, docs/protocol.md "Delta
 * compression"): the server may send a message with `delta: {format: "fossil", base, data}` in
 * place of `content`, `data` being the base64 of a fossil delta (the `fossil-delta` package) from
 * the content of message `base` to this message's content, over their UTF-8 JSON text.
 *
 * The subscription keeps its base: the content bytes of the last message it received that can be
 * one (a message with `id`, object `content` and no `to`, the server's rule), taken from the frame's
 * text as it arrived so the bytes are the server's. A delta against any other message, or one that
 * does not rebuild (the delta's checksum), is a mismatch: the channel re-subscribes from its last
 * seq rather than show wrong content.
 */
import { applyDelta } from 'fossil-delta';

/** The text each message frame was parsed from (transport.ts, sse-stream.ts), for its content's exact bytes. */
const frameTexts = new WeakMap<object, string>();

/** Keeps the text a message frame (no `op`) was parsed from. */
export function keepFrameText(frame: Record<string, unknown>, text: string): void {
  if (frame.op === undefined && 'content' in frame) frameTexts.set(frame, text);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The end (exclusive) of the JSON value starting at `at` in `text` (already valid JSON: no checks). */
function valueEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      if (depth === 0) return i + 1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return i + 1;
      if (depth < 0) return i;
    } else if (depth === 0 && (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) return i;
  }
  return text.length;
}

/** The text of the top-level `content` value of a frame's JSON text, or undefined. */
export function contentText(text: string): string | undefined {
  let i = text.indexOf('{') + 1;
  let found: string | undefined;
  while (i > 0 && i < text.length) {
    while (i < text.length && text.charCodeAt(i) !== 0x22 && text.charCodeAt(i) !== 0x7d) i++;
    if (text.charCodeAt(i) !== 0x22) break;
    const keyEnd = valueEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = text.indexOf(':', keyEnd) + 1;
    while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d || text.charCodeAt(i) === 0x09) i++;
    const end = valueEnd(text, i);
    // JSON.parse keeps the last of duplicate keys: so does this
    if (key === 'content') found = text.slice(i, end);
    i = end;
  }
  return found;
}

function fromBase64(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** One subscription's delta base, and the rebuilding of its delta messages. */
export class DeltaReader {
  #base: { id: string; bytes: Uint8Array } | undefined;

  /** A new subscription on the server: it starts without a base (its first message comes full). */
  reset(): void {
    this.#base = undefined;
  }

  /** The id of the current base (tests, diagnostics). */
  get baseId(): string | undefined {
    return this.#base?.id;
  }

  /**
   * A message frame of the subscription, in the order received: a delta's content is rebuilt in
   * place (`content` set, `delta` removed), and the base moves. False on a mismatch: the frame must
   * not be shown, and the subscription must start again.
   */
  read(frame: Record<string, unknown>): boolean {
    const delta = frame.delta;
    if (delta !== undefined) {
      const base = this.#base;
      this.#base = undefined;
      if (!isObject(delta) || delta.format !== 'fossil' || typeof delta.data !== 'string' || !base || delta.base !== base.id) return false;
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(applyDelta(base.bytes, fromBase64(delta.data), { verifyChecksum: true }));
        frame.content = JSON.parse(decoder.decode(bytes)) as unknown;
      } catch {
        return false;
      }
      delete frame.delta;
      if (typeof frame.id === 'string' && isObject(frame.content) && frame.to === undefined) this.#base = { id: frame.id, bytes };
      return true;
    }
    if (typeof frame.id !== 'string' || !isObject(frame.content) || frame.to !== undefined) return true;
    const text = frameTexts.get(frame);
    const content = text === undefined ? undefined : contentText(text);
    this.#base = content === undefined ? undefined : { id: frame.id, bytes: encoder.encode(content) };
    return true;
  }
}
