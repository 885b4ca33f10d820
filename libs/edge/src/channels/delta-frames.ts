/**
 * Delta compression of a channel's messages (docs/protocol.md, "Delta compression"): a subscriber
 * that asked for `delta: "fossil"` gets a message as a fossil delta of its `content` against the
 * content of the previous message it received, instead of the content itself.
 *
 * The codec is the `fossil-delta` package (Fossil SCM's format, the one Centrifugo's `delta`
 * publications use), over the UTF-8 bytes of `content`'s JSON text exactly as it was published:
 * the client rebuilds those bytes, so the text it parses is the text a plain subscriber gets.
 *
 * A channel feed computes a message's delta at most once, for every subscriber of the channel on
 * this gateway, and only when one of them asks for it: against the previous message frame the
 * feed delivered that can be a base. A subscription is sent the delta only when that base is the
 * message it last received with content (ChannelReplay keeps its id), else the full message.
 *
 * What can be a base (the same rule in the client SDK): a message frame (no `op`) with an `id`,
 * object `content` (not retracted) and no `to`. Persisted and ephemeral messages alike, in the
 * order the feed delivers them (an ephemeral state update is the typical delta workload).
 * Messages addressed with `to` reach only some subscribers, so they are never bases and never
 * deltas; `skip`, `retract`, `presence` and any other frame with an `op` neither carry a delta nor
 * move the base.
 */
import { createDelta } from 'fossil-delta';
import { valueSpan } from '@rtm/schemas';
import { tagChannel, type Frame } from './channel-feed.ts';

/** The delta formats a subscribe may ask for. */
export const DELTA_FORMATS = ['fossil'] as const;
export type DeltaFormat = (typeof DELTA_FORMATS)[number];

const CONTENT_KEY = '"content":';
/** What follows `content` in an envelope (libs/schemas messageEnvelopeText): its next field. */
const SENDER_KEY = ',"sender":{"id":';

/** The id of a message frame that can be a delta base (see above), else undefined. */
export function baseIdOf(frame: Frame): string | undefined {
  if (frame.op !== undefined || typeof frame.id !== 'string' || frame.to !== undefined) return undefined;
  const content = frame.content;
  return content !== null && typeof content === 'object' && !Array.isArray(content) ? frame.id : undefined;
}

/**
 * Where `content` sits in a message frame's text: the span of its key and value. Envelopes are
 * written by one builder (libs/schemas messageEnvelopeText / messageEnvelopeBytes): `id`, `seq`,
 * `type`, `kind` (strings and a number), then `"content":` and the value, then `,"sender":{"id":`
 * and fields whose strings are all JSON-escaped. A quote inside a JSON string is escaped, so the
 * first `"content":` of such a text is that key and the last `,"sender":{"id":` the end of its
 * value: two native searches instead of a walk over the whole content (most of the frame). Any
 * other text takes the walk (valueSpan), which a unit test checks the searches against.
 */
export function contentSpan(text: string): { key: number; start: number; end: number } | undefined {
  const key = text.indexOf(CONTENT_KEY);
  const end = text.lastIndexOf(SENDER_KEY);
  const start = key + CONTENT_KEY.length;
  if (key > 0 && end > start && text.charCodeAt(start) === 0x7b && text.charCodeAt(end - 1) === 0x7d && text.startsWith('{"id":')) {
    return { key, start, end };
  }
  return walkedContentSpan(text);
}

/** contentSpan by walking the text's keys (any JSON object text). */
export function walkedContentSpan(text: string): { key: number; start: number; end: number } | undefined {
  let span;
  try {
    span = valueSpan(text, ['content']);
  } catch {
    return undefined;
  }
  if (!span || text.charCodeAt(span.start) !== 0x7b) return undefined;
  const key = span.start - CONTENT_KEY.length;
  return key > 0 && text.startsWith(CONTENT_KEY, key) ? { key, start: span.start, end: span.end } : undefined;
}

/**
 * One message frame that can be a base: its id and text, its content's UTF-8 bytes found and
 * encoded on first use (by the next frame's delta, or its own). It refers to no other frame, so a
 * feed keeping its last one keeps nothing more.
 */
export class DeltaBase {
  readonly id: string;
  readonly text: string;
  /** Where `content` is in `text` (null: nowhere it should be), found on first use. */
  span: { key: number; start: number; end: number } | null | undefined;
  private bytes: Uint8Array | null | undefined;

  constructor(id: string, text: string) {
    this.id = id;
    this.text = text;
  }

  /** The content's UTF-8 bytes, or null when the frame's text has no object `content` where expected. */
  content(): Uint8Array | null {
    if (this.bytes === undefined) {
      const span = (this.span ??= contentSpan(this.text) ?? null);
      this.bytes = span ? Buffer.from(this.text.slice(span.start, span.end), 'utf8') : null;
    }
    return this.bytes;
  }
}

/**
 * A message frame's text with `content` replaced by `delta`: every other field as it was, in its
 * place. Undefined when the delta frame would not be smaller than the full one.
 */
export function deltaFrameText(base: DeltaBase, target: DeltaBase): string | undefined {
  const from = base.content();
  const to = target.content();
  const span = target.span;
  if (!from || !to || !span) return undefined;
  const data = Buffer.from(createDelta(from, to)).toString('base64');
  const delta = `"delta":{"format":"fossil","base":${JSON.stringify(base.id)},"data":"${data}"}`;
  // the base id is ASCII and the data base64: the frame's length in UTF-8 changes by exactly this much
  if (delta.length >= CONTENT_KEY.length + to.length) return undefined;
  return `${target.text.slice(0, span.key)}${delta}${target.text.slice(span.end)}`;
}

/**
 * A frame's delta as a feed offers it to its members (channel-feed.ts Outgoing): against the
 * message `base`, encoded once, in each form (with `channelId` for the multiplexed socket, without
 * for the channel socket) on first use.
 */
export class DeltaOffer {
  readonly base: string;
  private readonly from: DeltaBase;
  private readonly to: DeltaBase;
  private readonly frame: Frame;
  private readonly channelId: string;
  private text: string | null | undefined;
  private plain: Buffer | undefined;
  private tagged: Buffer | undefined;

  constructor(from: DeltaBase, to: DeltaBase, frame: Frame, channelId: string) {
    this.base = from.id;
    this.from = from;
    this.to = to;
    this.frame = frame;
    this.channelId = channelId;
  }

  /** The delta frame as sent, or undefined when a delta would not be smaller (send the full frame). */
  bytes(tagged: boolean): Buffer | undefined {
    if (this.text === undefined) this.text = deltaFrameText(this.from, this.to) ?? null;
    if (this.text === null) return undefined;
    if (tagged) return (this.tagged ??= Buffer.from(tagChannel(this.text, this.frame, this.channelId), 'utf8'));
    return (this.plain ??= Buffer.from(this.text, 'utf8'));
  }
}
