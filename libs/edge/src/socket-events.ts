import { EventEmitter } from 'node:events';
import type { Closing } from './sockets/close-codes.ts';

/** What a socket handler hands to whoever needs to reach that socket (presence, kicks). */
export interface SocketHandle {
  socketId: string;
  environmentId: string;
  userId: string;
  anon: boolean;
  /** Sends one frame (serialised here); dropped if the socket is closing. */
  send(frame: object): void;
  /** Closes with an entry of the close table (sockets/close-codes.ts, docs/limits.md). */
  close(closing: Closing): void;
  /**
   * Access taken away (a ban, a removal, an access change): a single-purpose socket closes with
   * 4403; a subscription of the multiplexed socket ends alone with `unsubscribed {code}`.
   */
  revoke(code: 'banned' | 'forbidden', reason: string): void;
}

export interface ChannelSocketHandle extends SocketHandle {
  channelId: string;
  /** False when the channel's namespace does not track presence (set by the access check before the handle opens). */
  presence?: boolean;
}

interface Events {
  /** A channel socket finished its replay and is live (after `ready`). */
  'channel.open': [ChannelSocketHandle];
  'channel.close': [ChannelSocketHandle];
  'inbox.open': [SocketHandle];
  'inbox.close': [SocketHandle];
  /** A multiplexed connection (`/v1/connect`) is open: counted as one socket, reachable by environment kicks. */
  'connect.open': [SocketHandle];
  'connect.close': [SocketHandle];
  /** One channel subscription of a multiplexed connection went live (after `subscribed`). */
  'subscription.open': [ChannelSocketHandle];
  'subscription.close': [ChannelSocketHandle];
  /** A logs socket is live (after `ready`): counted in the environment's socket quota. */
  'logs.open': [SocketHandle];
  'logs.close': [SocketHandle];
}

/**
 * Gateway-local events about sockets, so the channel socket, presence, kicks and the inbox stay
 * separate modules: socket handlers emit, the others listen.
 */
export class SocketEvents extends EventEmitter<Events> {
  constructor() {
    super();
    this.setMaxListeners(50);
  }
}
