/**
 * One channel subscription of the multiplexed socket (connect-socket.ts): `subscribe` admits it
 * (access check, feed join, replay), `subscribed` makes it live, and it ends by `unsubscribe`,
 * by the connection closing, or by the server (`unsubscribed {code}`).
 */
import { historyUnits } from '@rtm/limits';
import { ServiceError } from '@rtm/errors';
import { presenceOff } from '@rtm/presence';
import type { ConnectDeps } from './connect-socket.ts';
import type { ChannelSocketHandle } from '../socket-events.ts';
import type { UserAuth } from '../auth/authenticate.ts';
import { authorize } from '../access/channel-access.ts';
import type { FeedRegistry } from '../channels/channel-feed.ts';
import { ChannelReplay, type ReplayOptions, type ReplayStart } from '../sessions/channel-replay.ts';
import type { Sessions } from '../sessions/sessions.ts';
import type { SessionMetrics } from '../sessions/session-metrics.ts';
import type { Link } from '../sessions/link.ts';
import { isAccessClose, type Closing } from './close-codes.ts';
import type { Ref } from './connect-frames.ts';

/** A subscribe that asks for deltas where the channel's namespace does not turn them on. */
export const deltaOff = () => new ServiceError('forbidden', "delta compression is not on in this channel's namespace (namespaces[].delta)");

/** Why the server ended a subscription (`unsubscribed` without a ref). */
export type EndCode = 'banned' | 'forbidden' | 'unavailable';

/** What a subscription uses of its connection. */
export interface SubscriptionOwner {
  readonly deps: ConnectDeps;
  readonly sessions: Sessions;
  readonly link: Link;
  readonly metrics: SessionMetrics;
  readonly auth: UserAuth;
  /** The subscription ended: the connection no longer holds it. */
  forget(subscription: Subscription): void;
  /** An error frame for one request; the connection stays open. */
  refuse(ref: Ref | undefined, channelId: string | undefined, error: unknown): void;
}

/**
 * One channel subscription: it is its own handle for presence and kicks (ChannelSocketHandle) and
 * its own reader's options (ReplayOptions), so it costs one object and its reader, with no
 * closure of its own: an idle gateway holds one per (socket, channel).
 */
export class Subscription implements ChannelSocketHandle, ReplayOptions {
  readonly channelId: string;
  readonly socketId: string;
  // fixed for the subscription's life (a renewed token is the same user's): presence and the
  // socket registry key it by them, so they must not move under it
  readonly environmentId: string;
  readonly userId: string;
  readonly anon: boolean;
  /** Messages go as deltas where they can (`subscribe` with `delta: "fossil"`). */
  readonly delta: boolean;
  private readonly connection: SubscriptionOwner;
  private readonly reader: ChannelReplay;
  private opened = false;
  /** Watching the channel's occupancy (`subscribe` with `occupancy: true`). */
  private occupancy = false;
  /** False when the channel's namespace does not track presence (set by the access check). */
  presence: boolean | undefined;
  ended = false;

  constructor(connection: SubscriptionOwner, channelId: string, delta = false) {
    this.connection = connection;
    this.channelId = channelId;
    this.delta = delta;
    this.socketId = `${connection.link.socketId}/${channelId}`;
    const { auth } = connection;
    this.environmentId = auth.environmentId;
    this.userId = auth.userId;
    this.anon = auth.anon;
    this.reader = new ChannelReplay(this);
  }

  // the reader's options, read from the connection
  get deps(): ConnectDeps {
    return this.connection.deps;
  }
  get feeds(): FeedRegistry {
    return this.connection.sessions.channels;
  }
  get link(): Link {
    return this.connection.link;
  }
  /** Frames carry `channelId`. */
  get tagged(): boolean {
    return true;
  }

  /** The reader cannot go on (outrun, feed lost track). */
  lost(closing: Closing): void {
    this.end({ code: 'unavailable', reason: closing.reason });
  }

  send(frame: object): void {
    this.connection.link.send({ ...frame, channelId: this.channelId });
  }

  /** A close of the whole socket, applied to this subscription alone: it ends with `unsubscribed {code}`. */
  close(closing: Closing): void {
    this.end({ code: isAccessClose(closing) ? 'forbidden' : 'unavailable', reason: closing.reason });
  }

  revoke(code: 'banned' | 'forbidden', reason: string): void {
    this.end({ code, reason });
  }

  /**
   * `ref` is the `subscribe` frame's; an event stream's subscriptions have none (its `subscribed`
   * carries no ref). `start`: the frame's `since` or `rewind` (resolved once the feed is joined).
   */
  async start(ref: Ref | undefined, start: ReplayStart, occupancy: boolean): Promise<void> {
    const { deps, auth, link } = this.connection;
    try {
      // the access check and the feed join (last_seq) wait their environment's turn (sessions.admission)
      const joined = await this.connection.sessions.admission.run(auth.environmentId, async () => {
        if (this.ended) return false;
        const standing = await authorize(deps, auth, this.channelId, 'subscribe');
        this.presence = standing.namespace.presence;
        if (this.delta && !standing.namespace.delta) throw deltaOff();
        if (occupancy) {
          // the counts are presence's: the same capability as the roster, and presence on
          await authorize(deps, auth, this.channelId, 'presence');
          if (!standing.namespace.presence) throw presenceOff();
        }
        return !this.ended && (await this.reader.join());
      });
      if (!joined || this.ended) return;
      const since = await this.reader.since(start);
      if (this.ended) return;
      // a replay reads history: weighed as a page of what it will send (over it: error frame, retryAfter)
      const lastSeq = this.reader.lastSeq;
      if (since !== undefined && lastSeq > since) await deps.limits.admitEdge(auth, 'history', historyUnits(lastSeq - since));
      if (this.ended) return;
      if (!(await this.reader.replay({ since })) || this.ended) return;
      link.send({ op: 'subscribed', ref, channelId: this.channelId, lastSeq: this.reader.lastSeq });
      this.reader.live();
      this.opened = true;
      this.connection.metrics.subscriptions.inc();
      // presence, kicks (and an uncached access re-check now that kicks reach this subscription)
      deps.events.emit('subscription.open', this);
      if (occupancy) {
        this.occupancy = true;
        this.connection.sessions.occupancy.watch(this);
      }
    } catch (error) {
      if (this.ended) return;
      this.end();
      this.connection.refuse(ref, this.channelId, error);
    }
  }

  /** Ends the subscription: with `unsubscribed {code}` when the server ends it, silently otherwise. */
  end(notice?: { code: EndCode; reason: string }): void {
    if (this.ended) return;
    this.ended = true;
    this.reader.stop();
    this.connection.forget(this);
    if (this.occupancy) {
      this.occupancy = false;
      this.connection.sessions.occupancy.unwatch(this);
    }
    if (this.opened) {
      this.opened = false;
      this.connection.metrics.subscriptions.dec();
      this.connection.deps.events.emit('subscription.close', this);
    }
    if (notice) this.connection.link.send({ op: 'unsubscribed', channelId: this.channelId, code: notice.code, reason: notice.reason });
  }
}
