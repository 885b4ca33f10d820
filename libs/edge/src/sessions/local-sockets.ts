import type { ChannelSocketHandle, SocketHandle } from '../socket-events.ts';

export interface LocalSocketsHooks {
  firstOfUser(environmentId: string, userId: string): void;
  lastOfUser(environmentId: string, userId: string): void;
  firstOfChannel(environmentId: string, channelId: string): void;
  lastOfChannel(environmentId: string, channelId: string): void;
}

const keyOf = (a: string, b: string) => `${a}\u0000${b}`;

function isChannelHandle(handle: SocketHandle): handle is ChannelSocketHandle {
  return typeof (handle as Partial<ChannelSocketHandle>).channelId === 'string';
}

/**
 * A user's sockets here: a handful at most for nearly every user (a connection and its
 * subscriptions), so an array of exactly their number, replaced on each change, until it holds
 * SMALL; a Map from then on. A Map per user would cost ~300 bytes for each of a gateway's users.
 */
type UserSockets = SocketHandle[] | Map<string, SocketHandle>;
const SMALL = 8;

/**
 * The live sockets of this gateway (channel and inbox), by user and by channel, so a kick can
 * reach them. `add` and `remove` are idempotent per socket id; hooks fire on a user's or a
 * channel's first and last socket here.
 */
export class LocalSockets {
  private readonly hooks: LocalSocketsHooks;
  private readonly byUser = new Map<string, UserSockets>();
  private readonly byChannel = new Map<string, Map<string, ChannelSocketHandle>>();

  constructor(hooks: LocalSocketsHooks) {
    this.hooks = hooks;
  }

  add(handle: SocketHandle): void {
    const userKey = keyOf(handle.environmentId, handle.userId);
    const ofUser = this.byUser.get(userKey);
    if (!ofUser) {
      this.byUser.set(userKey, [handle]);
      this.hooks.firstOfUser(handle.environmentId, handle.userId);
    } else if (Array.isArray(ofUser)) {
      if (ofUser.some((each) => each.socketId === handle.socketId)) return;
      // concat: a new array of exactly one more (a push would leave room for sixteen more)
      if (ofUser.length < SMALL) this.byUser.set(userKey, ofUser.concat(handle));
      else this.byUser.set(userKey, new Map([...ofUser, handle].map((each) => [each.socketId, each])));
    } else {
      if (ofUser.has(handle.socketId)) return;
      ofUser.set(handle.socketId, handle);
    }
    if (isChannelHandle(handle)) {
      const channelKey = keyOf(handle.environmentId, handle.channelId);
      let ofChannel = this.byChannel.get(channelKey);
      if (!ofChannel) this.byChannel.set(channelKey, (ofChannel = new Map()));
      ofChannel.set(handle.socketId, handle);
      if (ofChannel.size === 1) this.hooks.firstOfChannel(handle.environmentId, handle.channelId);
    }
  }

  remove(handle: SocketHandle): void {
    const userKey = keyOf(handle.environmentId, handle.userId);
    const ofUser = this.byUser.get(userKey);
    if (!ofUser) return;
    let left: number;
    if (Array.isArray(ofUser)) {
      const at = ofUser.findIndex((each) => each.socketId === handle.socketId);
      if (at === -1) return;
      left = ofUser.length - 1;
      if (left > 0) this.byUser.set(userKey, ofUser.slice(0, at).concat(ofUser.slice(at + 1)));
    } else {
      if (!ofUser.delete(handle.socketId)) return;
      left = ofUser.size;
    }
    if (left === 0) {
      this.byUser.delete(userKey);
      this.hooks.lastOfUser(handle.environmentId, handle.userId);
    }
    if (isChannelHandle(handle)) {
      const channelKey = keyOf(handle.environmentId, handle.channelId);
      const ofChannel = this.byChannel.get(channelKey);
      if (ofChannel?.delete(handle.socketId) && ofChannel.size === 0) {
        this.byChannel.delete(channelKey);
        this.hooks.lastOfChannel(handle.environmentId, handle.channelId);
      }
    }
  }

  ofUser(environmentId: string, userId: string): SocketHandle[] {
    const ofUser = this.byUser.get(keyOf(environmentId, userId));
    if (!ofUser) return [];
    return Array.isArray(ofUser) ? ofUser.slice() : [...ofUser.values()];
  }

  /** Every channel socket of an environment here (a scan over this gateway's channels: for rare, environment-wide changes). */
  channelSocketsOf(environmentId: string): ChannelSocketHandle[] {
    const prefix = keyOf(environmentId, '');
    const found: ChannelSocketHandle[] = [];
    for (const [key, sockets] of this.byChannel) if (key.startsWith(prefix)) found.push(...sockets.values());
    return found;
  }

  ofChannel(environmentId: string, channelId: string): ChannelSocketHandle[] {
    return [...(this.byChannel.get(keyOf(environmentId, channelId))?.values() ?? [])];
  }
}
