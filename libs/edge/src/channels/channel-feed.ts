/**
 * A feed is this gateway's ONE subscription to a channel's NATS subject, shared by every local
 * socket of that channel. Guarantees to its members:
 * - each frame is parsed, serialised and encoded once, and the same bytes go to every member;
 * - the channel's sequence (persisted messages by `seq`; changes of messages, `update`,
 *   `summary` and `retract`, by `eventSeq`) arrives in order with no gap and no duplicate: a
 *   frame at or below the last position delivered is dropped; a gap (the owner died after commit
 *   but before publishing, or NATS dropped a frame) is filled from Postgres before the frame is
 *   delivered: its messages, its changes (each as its message is now), and a `skip` for a
 *   position whose change was superseded or deleted;
 * - ephemeral frames (and changes from an owner of an earlier release, without `eventSeq`) are
 *   relayed in arrival order;
 * - presence changes are gathered for PRESENCE_WINDOW_MS (one timer per feed) and sent as one
 *   `{op:"presence", joined, left}` frame: at most one presence frame per member per window,
 *   the latest decision per user winning (@rtm/presence, coalesce.ts);
 * - a frame with `to` reaches only those users and its sender;
 * - a message that can be a delta base comes with its delta against the previous such message
 *   the feed delivered (delta-frames.ts), computed once on first use by a delta subscriber;
 *   messages read from Postgres (gap repair) come without one.
 * The feed starts from the channel's last_seq read after its subscription is live, so a member
 * that replays from Postgres after joining sees every later frame from the feed.
 */
import { decodeText, type Subjects, type Subscriber } from '@rtm/bus';
import type { ChangeRange, ReadRange, StoredChange, StoredMessage } from '@rtm/channels';
import type { FrameText } from '../sessions/socket-link.ts';
import { PRESENCE_WINDOW_MS, PresenceWindow, changesOf, presenceFrame } from '@rtm/presence';
import { DeltaBase, DeltaOffer, baseIdOf } from './delta-frames.ts';

/**
 * How long a feed remembers when the presence it sent per user was decided: within it, a late
 * change older than that is dropped. A change that restates the state sent is still sent: a member
 * may have read the roster while the user was briefly away (coalesce.ts).
 */
const PRESENCE_MEMORY_MS = 60_000;

/**
 * What a channel feed needs: the channel's subject on the bus, the channel's store (its last seq
 * when the feed starts, the messages of a gap) and the log. sessions.ts builds it from the
 * gateway's connections (the store is Postgres, libs/channels).
 */
export interface FeedDeps {
  nc: Subscriber;
  subjects: Pick<Subjects, 'channel'>;
  /** The channel's last persisted seq (0 for a channel that has none). */
  lastSeq(environmentId: string, channelId: string): Promise<number>;
  /** The channel's persisted messages in a range, oldest first (history's read; gap repair). */
  read(environmentId: string, channelId: string, range: ReadRange): Promise<StoredMessage[]>;
  /** The changes of the channel's messages in a range of its sequence, as frames (gap repair). */
  readChanges(environmentId: string, channelId: string, range: ChangeRange): Promise<StoredChange[]>;
  log: { warn(details: object, message: string): void };
}

export interface Frame {
  op?: string;
  seq?: number;
  ephemeral?: boolean;
  to?: string[];
  sender?: { id: string };
  [key: string]: unknown;
}

export interface FeedMember {
  readonly userId: string;
  /**
   * `text` is the frame as sent (encoded once per frame, shared by every member); `tagged()` is
   * the same frame with `channelId` added (what the multiplexed socket sends), serialised and
   * encoded at most once per frame however many members ask for it. `delta`, for a message that
   * has a base, is the frame as a delta against that base (delta-frames.ts), encoded at most once.
   */
  deliver(text: FrameText, frame: Frame, tagged: () => FrameText, delta?: DeltaOffer): void;
  /**
   * A persisted message addressed (`to`) to other users: this member's seq advances without it.
   * `text()` is `{channelId, op:"skip", seq}`, serialised at most once per frame.
   */
  skip?(seq: number, text: () => FrameText): void;
  /** The feed lost track (a gap it could not repair): the member should reconnect and resume. */
  resync(): void;
}

/**
 * A channel frame as the multiplexed socket sends it: `channelId` first, then the frame's own
 * fields. Frames on a channel subject are JSON objects serialised without a `channelId`, so the
 * field is spliced in without parsing again; anything else is re-serialised.
 */
export function tagChannel(text: string, frame: object, channelId: string): string {
  if (text.startsWith('{"') && !('channelId' in frame)) return `{"channelId":${JSON.stringify(channelId)},${text.slice(1)}`;
  return JSON.stringify({ ...frame, channelId });
}

/** Frames that change a message after it was published; each takes a place in the channel's sequence (`eventSeq`). */
const CHANGE_OPS: ReadonlySet<string> = new Set(['update', 'summary', 'retract']);

/**
 * A frame's place in the channel's sequence: a persisted message's `seq`, a change's `eventSeq`, a
 * `skip`'s `seq`; undefined for the others (ephemeral messages, presence).
 */
export function positionOf(frame: Frame): number | undefined {
  if (frame.op === undefined) return frame.ephemeral === false && typeof frame.seq === 'number' ? frame.seq : undefined;
  if (frame.op === 'skip') return typeof frame.seq === 'number' ? frame.seq : undefined;
  return CHANGE_OPS.has(frame.op) && typeof frame.eventSeq === 'number' ? frame.eventSeq : undefined;
}

/** A frame that carries the channel's sequence: a persisted message or a change of one (not a skip). */
export const isSequenced = (frame: Frame): boolean => frame.op !== 'skip' && positionOf(frame) !== undefined;

const MAX_REPAIR = 1000;
/**
 * A frame's fan-out goes in slices, one per event-loop turn: the rest wait for the next turn (and
 * the feed's next frame waits for them), so one channel with thousands of local sockets (one
 * tenant's) does not hold the event loop for the whole fan-out while another tenant's frames and
 * requests wait: they are served between the slices. A slice is sized by time: each feed measures
 * what its last slice cost per member, the sockets' writes included, and hands the next slice as
 * many members as fit in FANOUT_TURN_MS, at least FANOUT_MIN and at most FANOUT_SLICE. A
 * neighbour's request then waits at most about one slice per hop through this gateway, whatever
 * one send costs (it is mostly the write syscall, dearer on a loaded machine).
 */
export const FANOUT_SLICE = 256;
export const FANOUT_MIN = 16;
export const FANOUT_TURN_MS = 1;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ChannelFeed {
  readonly environmentId: string;
  readonly channelId: string;
  readonly members = new Set<FeedMember>();
  readonly ready: Promise<void>;
  private readonly deps: FeedDeps;
  private readonly subscription: { unsubscribe(): void };
  private readonly queue: Uint8Array[] = [];
  private busy = true;
  private last = 0;
  /** The last message delivered that can be a delta base (delta-frames.ts). */
  private base: DeltaBase | undefined;
  /** Members the next slice of a fan-out hands a frame to (sized by the last slice's cost). */
  private slice = FANOUT_SLICE;
  /** Presence changes of the current window and the feed's one window timer (created on first use). */
  private presence: PresenceWindow | undefined;
  private presenceTimer: NodeJS.Timeout | undefined;

  constructor(deps: FeedDeps, environmentId: string, channelId: string) {
    this.deps = deps;
    this.environmentId = environmentId;
    this.channelId = channelId;
    this.subscription = deps.nc.subscribe(deps.subjects.channel(environmentId, channelId), {
      callback: (error, msg) => {
        if (error) return;
        this.queue.push(msg.data);
        if (!this.busy) void this.pump();
      },
    });
    this.ready = (async () => {
      await deps.nc.flush();
      this.last = await deps.lastSeq(environmentId, channelId);
    })();
    this.ready.then(
      () => void this.pump(),
      () => this.close(),
    );
  }

  /**
   * The highest seq this feed has handed to its members (or started to), once ready. A member
   * that joins now gets every persisted frame above it and none at or below it: the point where
   * a reader's replay from Postgres hands over to the feed, with no query of its own.
   */
  get lastSeq(): number {
    return this.last;
  }

  close(): void {
    this.subscription.unsubscribe();
    clearTimeout(this.presenceTimer);
    this.presenceTimer = undefined;
  }

  private async pump(): Promise<void> {
    this.busy = true;
    try {
      while (this.queue.length > 0) {
        const pending = this.handle(this.queue.shift()!);
        if (pending) await pending;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Returns a promise only when a gap has to be read from Postgres first. */
  private handle(data: Uint8Array): Promise<void> | undefined {
    const text = decodeText(data);
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      return undefined;
    }
    if (frame.op === 'presence') {
      this.gatherPresence(frame);
      return undefined;
    }
    const position = frame.op === 'skip' ? undefined : positionOf(frame);
    if (position === undefined) return this.deliver(text, frame);
    if (position <= this.last) return undefined;
    if (position === this.last + 1) {
      this.last = position;
      return this.deliver(text, frame);
    }
    return this.repair(text, frame, position);
  }

  private async repair(text: string, frame: Frame, position: number): Promise<void> {
    const from = this.last;
    try {
      const count = position - from - 1;
      if (count > MAX_REPAIR) throw new Error('gap too large to repair in place');
      const range = { after: from, before: position, limit: count };
      const [messages, changes] = await Promise.all([
        this.deps.read(this.environmentId, this.channelId, range),
        this.deps.readChanges(this.environmentId, this.channelId, range),
      ]);
      const found = new Map<number, string>();
      for (const message of messages) found.set(message.seq, message.text);
      for (const change of changes) found.set(change.position, change.text);
      for (let at = from + 1; at < position; at++) {
        const missing = found.get(at);
        // a change superseded or deleted since: its position is used, nothing to show
        if (missing === undefined) this.skipAll(at);
        // read from Postgres: sent full, each message the next one's base
        else await this.deliver(missing, JSON.parse(missing) as Frame, false);
      }
    } catch (error) {
      this.deps.log.warn({ err: error, channelId: this.channelId }, 'feed gap not repaired; members resync');
      for (const member of this.members) member.resync();
    }
    this.last = position;
    await this.deliver(text, frame);
  }

  /** A position with nothing to show anyone: every member's sequence moves past it. */
  private skipAll(position: number): void {
    let bytes: Buffer | undefined;
    const text = () => (bytes ??= Buffer.from(JSON.stringify({ channelId: this.channelId, op: 'skip', seq: position }), 'utf8'));
    for (const member of this.members) member.skip?.(position, text);
  }

  private gatherPresence(frame: Frame): void {
    const window = (this.presence ??= new PresenceWindow({ rememberMs: PRESENCE_MEMORY_MS }));
    for (const change of changesOf(frame, window.latestAt)) window.add(change);
    if (window.pendingSize > 0 && !this.presenceTimer) {
      this.presenceTimer = setTimeout(() => this.sendPresence(), PRESENCE_WINDOW_MS);
      this.presenceTimer.unref();
    }
  }

  /** The window closed: one frame with its net joins and leaves to every member. */
  private sendPresence(): void {
    this.presenceTimer = undefined;
    const batch = this.presence?.drain(Date.now());
    if (!batch) return;
    const frame = presenceFrame(batch) as Frame;
    void this.deliver(JSON.stringify(frame), frame);
  }

  /** Hands the frame to every member; a promise when the members are more than one turn's slice. */
  private deliver(text: string, frame: Frame, live = true): Promise<void> | undefined {
    const out = new Outgoing(text, frame, this.channelId);
    const id = baseIdOf(frame);
    if (id !== undefined) {
      const own = new DeltaBase(id, text);
      if (live && this.base) out.delta = new DeltaOffer(this.base, own, frame, this.channelId);
      this.base = own;
    }
    if (this.members.size <= FANOUT_MIN) {
      for (const member of this.members) this.deliverOne(member, out);
      return undefined;
    }
    const members = [...this.members];
    const at = this.deliverSlice(members, 0, out);
    return at < members.length ? this.deliverRest(members, at, out) : undefined;
  }

  private async deliverRest(members: FeedMember[], from: number, out: Outgoing): Promise<void> {
    for (let at = from; at < members.length; ) {
      await nextTurn();
      at = this.deliverSlice(members, at, out);
    }
  }

  /** Hands the frame to the next slice of `members` from `from`; returns where the slice ended. */
  private deliverSlice(members: FeedMember[], from: number, out: Outgoing): number {
    const started = performance.now();
    const end = Math.min(members.length, from + this.slice);
    for (let at = from; at < end; at++) this.deliverOne(members[at]!, out);
    // a socket's writes leave when the turn's ticks run (SocketLink corks it for the turn): this
    // tick is queued after theirs, so it sees what the slice cost with its syscalls
    const count = end - from;
    if (count >= FANOUT_MIN) process.nextTick(() => this.resize(count, performance.now() - started));
    return end;
  }

  /** The next slice: as many members as the last one's cost per member fits in FANOUT_TURN_MS. */
  private resize(count: number, ms: number): void {
    const fits = ms > 0 ? Math.floor((FANOUT_TURN_MS * count) / ms) : FANOUT_SLICE;
    this.slice = Math.max(FANOUT_MIN, Math.min(FANOUT_SLICE, fits));
  }

  private deliverOne(member: FeedMember, out: Outgoing): void {
    const { frame } = out;
    if (Array.isArray(frame.to) && !frame.to.includes(member.userId) && frame.sender?.id !== member.userId) {
      const position = positionOf(frame);
      if (position !== undefined) member.skip?.(position, out.skipped);
      return;
    }
    member.deliver(out.bytes(), frame, out.tagged, out.delta);
  }
}

/** One frame on its way to a feed's members: each form encoded once, on first use, for every slice. */
class Outgoing {
  readonly frame: Frame;
  private readonly text: string;
  private readonly channelId: string;
  private encoded: Buffer | undefined;
  private taggedBytes: Buffer | undefined;
  private skipBytes: Buffer | undefined;
  /** The frame as a delta against the previous base, when it has one. */
  delta: DeltaOffer | undefined;

  constructor(text: string, frame: Frame, channelId: string) {
    this.text = text;
    this.frame = frame;
    this.channelId = channelId;
  }

  bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.text, 'utf8'));
  }

  readonly tagged = (): Buffer => (this.taggedBytes ??= Buffer.from(tagChannel(this.text, this.frame, this.channelId), 'utf8'));

  readonly skipped = (): Buffer =>
    (this.skipBytes ??= Buffer.from(JSON.stringify({ channelId: this.channelId, op: 'skip', seq: positionOf(this.frame) }), 'utf8'));
}

/** The gateway's feeds, one per channel with local sockets. */
export class FeedRegistry {
  private readonly deps: FeedDeps;
  private readonly feeds = new Map<string, ChannelFeed>();

  constructor(deps: FeedDeps) {
    this.deps = deps;
  }

  /** Adds the member and resolves once the feed is live (its subscription and starting seq). */
  async join(environmentId: string, channelId: string, member: FeedMember): Promise<ChannelFeed> {
    const key = `${environmentId}\u0000${channelId}`;
    let feed = this.feeds.get(key);
    if (!feed) {
      feed = new ChannelFeed(this.deps, environmentId, channelId);
      this.feeds.set(key, feed);
    }
    feed.members.add(member);
    try {
      await feed.ready;
    } catch (error) {
      if (this.feeds.get(key) === feed) this.feeds.delete(key);
      feed.members.delete(member);
      throw error;
    }
    return feed;
  }

  leave(feed: ChannelFeed, member: FeedMember): void {
    feed.members.delete(member);
    if (feed.members.size > 0) return;
    const key = `${feed.environmentId}\u0000${feed.channelId}`;
    if (this.feeds.get(key) === feed) this.feeds.delete(key);
    feed.close();
  }

  get size(): number {
    return this.feeds.size;
  }
}
