/**
 * What an SSE session (sse-session.ts) spreads its channels over: slots of at most
 * MAX_STREAM_CHANNELS channels, each carried by one `GET /v1/events` stream.
 */
import type { EventStream } from './sse-stream.ts';

/** Channels one `GET /v1/events` may carry (the server's limit). */
export const MAX_STREAM_CHANNELS = 20;
/**
 * Streams of one client: 200 channels, as many as a socket's default MAX_SUBSCRIPTIONS. Past them
 * a subscribe is refused with `rate_limited`, as the socket would.
 */
export const MAX_STREAMS = 10;

/** A channel on a slot's stream: where its replay starts, and the ref of the `subscribe` it answers. */
export interface Entry {
  channelId: string;
  since: number | undefined;
  /** The `subscribe`'s rewind (sent only while the channel has no position: a reopened stream has `since`). */
  rewind: number | string | undefined;
  /** Undefined for a channel the session opened before its `subscribe` frame came (at the start). */
  ref: unknown;
  /** A stream was opened with it (reopening that stream means subscribing it again from its position). */
  opened: boolean;
}

/** Up to MAX_STREAM_CHANNELS channels and the one stream that carries them. */
export class Slot {
  /** The channels wanted on this slot. */
  readonly entries = new Map<string, Entry>();
  /** What the current stream was opened with: its frames count only while the entry is still the wanted one. */
  carried = new Map<string, Entry>();
  stream: EventStream | undefined;
  /** The current stream's connection id (its `connected`): what presence requests name. */
  connectionId: string | undefined;
}
