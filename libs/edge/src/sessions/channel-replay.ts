/**
 * One reader of one channel on one socket, replayed then live, shared by the channel socket
 * (`/v1/channels/{id}`) and each subscription of the multiplexed socket (`/v1/connect`):
 *
 *   join()          joins the gateway's feed of the channel (live frames are held from now on)
 *                   and takes the feed's last seq as the snapshot: every persisted frame above
 *                   it reaches this reader through the feed, none at or below it does (the feed
 *                   read the channel's last_seq once, after its subscription was live);
 *   replay(since)   sends every persisted message in (since, snapshot] from Postgres, 200 per page,
 *                   at the client's pace (each frame waits until the socket's queue is under half
 *                   its limit, so a replay never trips the slow-consumer bound itself); each page
 *                   read waits its environment's turn (sessions.admission), so replays of one
 *                   environment interleave with other environments' subscribes page by page;
 *                   `since` is the client's, or a `rewind` resolved by `since()` after join(),
 *                   against the snapshot and from where the pages are read (libs/channels rewind.ts);
 *   live()          sends the held frames minus persisted ones with seq <= snapshot (already
 *                   replayed) and delivers every later frame as it comes.
 * Every message above the snapshot is delivered by the feed after the reader joined (in seq
 * order, gaps repaired from Postgres), so it is held: no gap. Every message at or below it is
 * committed (the feed saw it), so the replay reads it; persisted frames with seq <= snapshot are
 * dropped after the hand-off (one high-water mark suffices): no duplicate. More than MAX_HELD_FRAMES
 * held (the channel outran a long replay) or a feed that lost track ends the reader through
 * `lost` (the client resumes with `since`).
 *
 * A reader that asked for deltas (`delta`) keeps the id of the last message it sent with content
 * that can be a base (channels/delta-frames.ts): a live message whose delta is against exactly
 * that message goes as the delta, any other as the full message. Replayed messages are always
 * full, and each moves the base like a live one.
 */
import type { EdgeDeps } from '../edge-deps.ts';
import { SOCKET_CLOSE, type Closing } from '../sockets/close-codes.ts';
import { positionOf, tagChannel, type ChannelFeed, type FeedMember, type FeedRegistry, type Frame } from '../channels/channel-feed.ts';
import { readChanges, readMessages, rewindSince, type StoredChange, type StoredMessage } from '@rtm/channels';
import type { Rewind } from '@rtm/schemas';
import { baseIdOf, type DeltaOffer } from '../channels/delta-frames.ts';
import type { FrameText, Link } from './link.ts';

const REPLAY_PAGE = 200;
/** Live frames held back during one replay; a channel that outruns a long replay makes it resume. */
export const MAX_HELD_FRAMES = 10_000;

/**
 * Read for the reader's whole life (kept, not copied): the multiplexed socket's Subscription is
 * its own options, so a subscription costs no separate options object or `lost` closure.
 */
export interface ReplayOptions {
  /**
   * Replay pages are read from Postgres, each in its environment's turn (sessions.admission): from
   * the read pool once it has replayed every change committed before the page is read (so every
   * message up to the snapshot, and every retraction and erasure of them), else from the primary.
   */
  deps: Pick<EdgeDeps, 'reads' | 'sessions' | 'usage'>;
  feeds: FeedRegistry;
  link: Link;
  environmentId: string;
  channelId: string;
  userId: string;
  /** Frames carry `channelId` (the multiplexed socket). */
  tagged: boolean;
  /** Messages go as deltas against the previous one where they can (`delta: "fossil"`). */
  readonly delta?: boolean;
  /** The reader cannot go on (outrun, feed lost track); it has already left the feed. */
  lost(closing: Closing): void;
}

/** Where a subscription asked to start: after `since` (it wins), else `rewind` back from the snapshot, else live. */
export interface ReplayStart {
  since?: number | undefined;
  rewind?: Rewind | undefined;
}

/** One replay: the persisted messages in (since, snapshot]; nothing without `since`. */
export interface ReplayRange {
  since: number | undefined;
}

export class ChannelReplay implements FeedMember {
  readonly userId: string;
  private readonly options: ReplayOptions;
  private feed: ChannelFeed | undefined;
  private held: [FrameText, Frame, () => FrameText, DeltaOffer | undefined][] | null = [];
  private snapshot = 0;
  /** The highest seq sent to the client (replayed or live); persisted frames at or below it are dropped. */
  private sent = 0;
  private stopped = false;
  /** The start was a rewind: the replay shows no change of an older message. */
  private rewound = false;
  /** With `delta`: the id of the last message sent that can be a base (its content is the client's base). */
  private base: string | undefined;

  constructor(options: ReplayOptions) {
    this.options = options;
    this.userId = options.userId;
  }

  /** Joins the feed and takes its last seq as the snapshot; false when the reader was stopped meanwhile. */
  async join(): Promise<boolean> {
    const { feeds, environmentId, channelId } = this.options;
    const feed = await feeds.join(environmentId, channelId, this);
    if (this.stopped) {
      feeds.leave(feed, this);
      return false;
    }
    this.feed = feed;
    this.snapshot = feed.lastSeq;
    return true;
  }

  /** The channel's last seq when the replay was cut (what `ready`/`subscribed` report). */
  get lastSeq(): number {
    return this.snapshot;
  }

  /**
   * The `since` a subscription's start amounts to: its own `since`, else its `rewind` resolved
   * against the snapshot (so called after join()), read where the replay reads, in the
   * environment's turn; undefined: nothing to replay.
   */
  async since(start: ReplayStart): Promise<number | undefined> {
    if (start.since !== undefined || start.rewind === undefined) return start.since;
    this.rewound = true;
    const { deps, environmentId, channelId } = this.options;
    const rewind = start.rewind;
    const range = { snapshot: this.snapshot, viewer: this.userId, now: Date.now() };
    return deps.sessions.admission.run(environmentId, async () =>
      this.done ? this.snapshot : deps.reads.current('replay', (db) => rewindSince(db, environmentId, channelId, rewind, range)),
    );
  }

  /**
   * Sends the channel's sequence in (since, snapshot]: its persisted messages as they are now, and
   * the changes of older messages (seq <= since) made since, each message once at its latest change
   * (`update` with the message as it is now, or `retract`), merged in the sequence's order, so a
   * client that resumes from the last seq it saw catches up on edits, reactions and retractions
   * too; after a rewind (which shows no older message), the messages only. False when stopped or
   * the socket closed meanwhile.
   */
  async replay({ since }: ReplayRange): Promise<boolean> {
    const { deps, environmentId, channelId, link } = this.options;
    const changes = !this.rewound;
    let after = since;
    while (after !== undefined && after < this.snapshot && !this.done) {
      // each page read waits its environment's turn: replays of many environments interleave page by page
      const range = { after, before: this.snapshot + 1, limit: REPLAY_PAGE, viewer: this.userId };
      const older = changes && since! > 0 ? { ...range, olderThan: since! } : undefined;
      const page = await deps.sessions.admission.run(environmentId, async () =>
        // a reader that stopped while it waited gives its turn back without reading; the replay
        // hands over to the feed at the snapshot, committed before this page is read
        this.done
          ? []
          : deps.reads.current('replay', (db) =>
              Promise.all([readMessages(db, environmentId, channelId, range), older ? readChanges(db, environmentId, channelId, older) : []]),
            ),
      );
      if (this.done) return false;
      const [messages, changed] = page as [StoredMessage[], StoredChange[]];
      // a full page of either kind ends where it ends: the rest of the other waits for the next page
      const upTo = Math.min(
        messages.length === REPLAY_PAGE ? messages[messages.length - 1]!.seq : Infinity,
        changed.length === REPLAY_PAGE ? changed[changed.length - 1]!.position : Infinity,
      );
      const merged = [...messages.map((m) => ({ position: m.seq, text: m.text, message: true })), ...changed]
        .filter((item) => item.position <= upTo)
        .sort((a, b) => a.position - b.position);
      for (const item of merged) {
        await link.drained();
        if (this.done) return false;
        // the envelope's text as stored (content spliced as published), never re-serialised
        const text = this.options.tagged ? tagChannel(item.text, {}, channelId) : item.text;
        link.sendText(text, channelId, item.position);
        if ('message' in item) deps.usage.delivered(environmentId, Buffer.byteLength(text, 'utf8'));
      }
      if (this.options.delta) this.replayedBase(merged);
      if (upTo === Infinity) break;
      after = upTo;
    }
    return !this.done;
  }

  /** Flushes the held frames not already replayed; from now on frames go straight out. */
  live(): void {
    const held = this.held ?? [];
    this.held = null;
    this.sent = this.snapshot;
    for (const [text, frame, tagged, delta] of held) this.forward(text, frame, tagged, delta);
  }

  deliver(text: FrameText, frame: Frame, tagged: () => FrameText, delta?: DeltaOffer): void {
    if (this.stopped) return;
    if (!this.held) return this.forward(text, frame, tagged, delta);
    if (this.held.length >= MAX_HELD_FRAMES) return this.lose(SOCKET_CLOSE.outrun);
    this.held.push([text, frame, tagged, delta]);
  }

  /**
   * A message of this channel not for this user (addressed with `to` to others). The multiplexed
   * socket tells the client `{op:"skip", channelId, seq}` so a client that checks seq continuity
   * knows the seq was used; the channel socket sends nothing, as before.
   */
  skip(seq: number, text: () => FrameText): void {
    if (this.stopped || !this.options.tagged) return;
    // only multiplexed subscriptions (tagged) get here, and they send the tagged text
    this.deliver('', { op: 'skip', seq }, text);
  }

  resync(): void {
    this.lose(SOCKET_CLOSE.resync);
  }

  /** Leaves the feed; nothing more is sent. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.held = null;
    if (this.feed) this.options.feeds.leave(this.feed, this);
    this.feed = undefined;
  }

  private get done(): boolean {
    return this.stopped || this.options.link.closed;
  }

  private forward(text: FrameText, frame: Frame, tagged: () => FrameText, delta: DeltaOffer | undefined): void {
    const { link, tagged: isTagged, channelId } = this.options;
    const position = positionOf(frame);
    if (position !== undefined && position <= this.sent) return;
    const out = this.options.delta ? this.withDelta(text, frame, tagged, delta) : isTagged ? tagged() : text;
    if (position !== undefined) {
      this.sent = position;
      // the channel's position moves with it (an event stream's ids carry it)
      link.sendText(out, channelId, position);
    } else link.sendText(out);
    // a message (persisted or ephemeral; not a change, a skip or presence) reached a subscriber
    if (frame.op === undefined && !link.closed) {
      this.options.deps.usage.delivered(this.options.environmentId, typeof out === 'string' ? Buffer.byteLength(out, 'utf8') : out.length);
    }
  }

  /** A delta reader's form of a frame: the delta when its base is this reader's, else the frame; moves the base. */
  private withDelta(text: FrameText, frame: Frame, tagged: () => FrameText, delta: DeltaOffer | undefined): FrameText {
    const isTagged = this.options.tagged;
    const id = baseIdOf(frame);
    if (id === undefined) return isTagged ? tagged() : text;
    const base = this.base;
    this.base = id;
    return (delta !== undefined && delta.base === base && delta.bytes(isTagged)) || (isTagged ? tagged() : text);
  }

  /** After a replayed page: the base is its last message that can be one (replayed messages go full). */
  private replayedBase(page: readonly { text: string }[]): void {
    for (let at = page.length - 1; at >= 0; at--) {
      const id = baseIdOf(JSON.parse(page[at]!.text) as Frame);
      if (id !== undefined) return void (this.base = id);
    }
  }

  private lose(closing: Closing): void {
    if (this.stopped) return;
    this.stop();
    this.options.lost(closing);
  }
}
