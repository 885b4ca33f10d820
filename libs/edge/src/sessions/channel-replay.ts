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
import { isSequenced, tagChannel, type ChannelFeed, type FeedMember, type FeedRegistry, type Frame } from '../channels/channel-feed.ts';
import { baseIdOf, type DeltaOffer } from '../channels/delta-frames.ts';
import { readMessages } from '@rtm/channels';
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
  deps: Pick<EdgeDeps, 'reads' | 'sessions'>;
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

export class ChannelReplay implements FeedMember {
  readonly userId: string;
  private readonly options: ReplayOptions;
  private feed: ChannelFeed | undefined;
  private held: [FrameText, Frame, () => FrameText, DeltaOffer | undefined][] | null = [];
  private snapshot = 0;
  /** The highest seq sent to the client (replayed or live); persisted frames at or below it are dropped. */
  private sent = 0;
  private stopped = false;
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

  /** Sends the persisted messages in (since, snapshot]; false when stopped or the socket closed meanwhile. */
  async replay(since: number | undefined): Promise<boolean> {
    const { deps, environmentId, channelId, link } = this.options;
    let after = since;
    while (after !== undefined && after < this.snapshot && !this.done) {
      // each page read waits its environment's turn: replays of many environments interleave page by page
      const range = { after, before: this.snapshot + 1, limit: REPLAY_PAGE, viewer: this.userId };
      const page = await deps.sessions.admission.run(environmentId, async () =>
        // a reader that stopped while it waited gives its turn back without reading; the replay
        // hands over to the feed at the snapshot, committed before this page is read
        this.done ? [] : deps.reads.current('replay', (db) => readMessages(db, environmentId, channelId, range)),
      );
      if (this.done) return false;
      for (const message of page) {
        await link.drained();
        if (this.done) return false;
        // the envelope's text as stored (content spliced as published), never re-serialised
        link.sendText(this.options.tagged ? tagChannel(message.text, message, channelId) : message.text, channelId, message.seq);
      }
      if (this.options.delta) this.replayedBase(page);
      if (page.length < REPLAY_PAGE) break;
      after = page[page.length - 1]!.seq;
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
    if (isSequenced(frame) || (frame.op === 'skip' && typeof frame.seq === 'number')) {
      if (frame.seq! <= this.sent) return;
      this.sent = frame.seq!;
      // the channel's position moves with it (an event stream's ids carry it)
      return link.sendText(this.options.delta ? this.withDelta(text, frame, tagged, delta) : isTagged ? tagged() : text, channelId, frame.seq);
    }
    link.sendText(this.options.delta ? this.withDelta(text, frame, tagged, delta) : isTagged ? tagged() : text);
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
