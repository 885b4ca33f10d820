/**
 * The positions an event stream (`GET /v1/events`, sockets/events-stream.ts) writes into every
 * event's `id:`, so a client that reconnects with `Last-Event-ID` resumes every channel where it
 * stopped, as a `subscribe` with `since` does. An id is comma-separated `<h>~<seq>`: `<h>` is the
 * first 8 characters of base64url(sha256(channelId)) (a channel id is up to 128 characters; a
 * browser sends the id back in a header on every reconnect, so it stays short: at most 20
 * entries of at most 26 characters), `<seq>` the last seq delivered for that channel (or its
 * `lastSeq` at `subscribed`). A stream that carries the inbox (`inbox=`) adds one entry
 * `inbox~<id>`: the last notification delivered (`inbox` is 5 characters, never a channel's hash).
 */
import { createHash } from 'node:crypto';
import { ServiceError } from '@rtm/errors';
import { EVENTS_MAX_CHANNELS, type EventsChannel } from '@rtm/schemas';

const ENTRY = /^([A-Za-z0-9_-]{8})~(0|[1-9][0-9]{0,15})$/;
const INBOX_ENTRY = /^inbox~([A-Za-z0-9_]{1,64})$/;

/** An event id read back: each channel hash's seq, and the inbox's last notification id. */
export interface EventId {
  channels: Map<string, number>;
  inbox: string | undefined;
}

/** The 8 characters standing for a channel in an event id. */
export function channelHash(channelId: string): string {
  return createHash('sha256').update(channelId, 'utf8').digest('base64url').slice(0, 8);
}

/** An event id read back. A malformed one is `invalid_request` (`where` names where it came from). */
export function parseEventId(id: string, where: string): EventId {
  const positions = new Map<string, number>();
  const read: EventId = { channels: positions, inbox: undefined };
  if (id.trim() === '') return read;
  const entries = id.split(',');
  if (entries.length > EVENTS_MAX_CHANNELS + 1) throw new ServiceError('invalid_request', `${where}: at most ${EVENTS_MAX_CHANNELS + 1} entries`);
  for (const entry of entries) {
    const inbox = INBOX_ENTRY.exec(entry.trim());
    if (inbox) {
      if (read.inbox !== undefined) throw new ServiceError('invalid_request', `${where}: the inbox twice`);
      read.inbox = inbox[1];
      continue;
    }
    const match = ENTRY.exec(entry.trim());
    const seq = match ? Number(match[2]) : NaN;
    if (!match || !Number.isSafeInteger(seq)) throw new ServiceError('invalid_request', `${where}: "${entry.slice(0, 40)}" is not <hash>~<seq> or inbox~<id>`);
    if (positions.has(match[1]!)) throw new ServiceError('invalid_request', `${where}: a channel twice`);
    positions.set(match[1]!, seq);
  }
  if (positions.size > EVENTS_MAX_CHANNELS) throw new ServiceError('invalid_request', `${where}: at most ${EVENTS_MAX_CHANNELS} channels`);
  return read;
}

/**
 * Where each requested channel starts: its own `~seq`, else the event id's position for its hash,
 * else nowhere (undefined: it starts live, at its lastSeq).
 */
export function resumePositions(channels: readonly EventsChannel[], eventId: string | undefined, where: string): (number | undefined)[] {
  const resumed = eventId === undefined ? new Map<string, number>() : parseEventId(eventId, where).channels;
  const hashes = channels.map((channel) => channelHash(channel.channelId));
  if (resumed.size > 0 && new Set(hashes).size !== hashes.length) {
    // never seen in practice (48 bits), but then the id cannot say which channel an entry is
    throw new ServiceError('invalid_request', `${where}: two of the channels share an event-id hash; resume them with <channelId>~<seq>`);
  }
  return channels.map((channel, index) => channel.since ?? resumed.get(hashes[index]!));
}

/**
 * Where a stream's inbox starts (the `since` of its `subscribe-inbox`): the later of the query's
 * `inbox=<id>` and the event id's `inbox~<id>` (notification ids grow: both were delivered, and a
 * browser's reconnect sends a newer event id with the URL it first opened). `inbox=1` is from the
 * start, or the event id's position. Undefined: every retained notification.
 */
export function resumeInbox(inbox: string, eventId: string | undefined, where: string): string | undefined {
  const fromQuery = inbox === '1' ? undefined : inbox;
  const fromId = eventId === undefined ? undefined : parseEventId(eventId, where).inbox;
  if (fromQuery === undefined || fromId === undefined) return fromQuery ?? fromId;
  // biome-ignore lint/complexity/useMathMinMax: the ids are strings, which Math.max would turn into numbers
  return fromId > fromQuery ? fromId : fromQuery;
}

/** A stream's positions, in the order of its query's channels, and the id they make. */
export class EventPositions {
  private readonly index = new Map<string, number>();
  private readonly hashes: string[];
  private readonly seqs: (number | undefined)[];
  private text: string | undefined;
  /** The last notification delivered on a stream with the inbox (or where it resumed from). */
  private inbox: string | undefined;

  constructor(channelIds: readonly string[], seqs: readonly (number | undefined)[], inbox?: string) {
    channelIds.forEach((channelId, at) => this.index.set(channelId, at));
    this.hashes = channelIds.map(channelHash);
    this.seqs = [...seqs];
    this.inbox = inbox;
  }

  /** A notification was delivered: the inbox resumes after it. */
  setInbox(id: string): void {
    if (this.inbox === id) return;
    this.inbox = id;
    this.text = undefined;
  }

  /** The channel's position moves to `seq` (a frame of it was delivered, or its subscription said `lastSeq`). */
  set(channelId: string, seq: number): void {
    const at = this.index.get(channelId);
    if (at === undefined || this.seqs[at] === seq) return;
    this.seqs[at] = seq;
    this.text = undefined;
  }

  /** The id of the next event: every channel with a position. */
  get id(): string {
    if (this.text === undefined) {
      const entries: string[] = [];
      this.seqs.forEach((seq, at) => {
        if (seq !== undefined) entries.push(`${this.hashes[at]}~${seq}`);
      });
      if (this.inbox !== undefined) entries.push(`inbox~${this.inbox}`);
      this.text = entries.join(',');
    }
    return this.text;
  }
}
