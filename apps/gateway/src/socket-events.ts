import { EventEmitter } from 'node:events';

/** What a socket handler hands to whoever needs to reach that socket (presence, kicks). */
export interface SocketHandle {
  socketId: string;
  environmentId: string;
  userId: string;
  anon: boolean;
  /** Sends one frame (serialised here); dropped if the socket is closing. */
  send(frame: object): void;
  /** Closes with a contract close code (see CLOSE in @rtm/errors). */
  close(code: number, reason?: string): void;
}

export interface ChannelSocketHandle extends SocketHandle {
  channelId: string;
}

interface Events {
  /** A channel socket finished its replay and is live (after `ready`). */
  'channel.open': [ChannelSocketHandle];
  'channel.close': [ChannelSocketHandle];
  'inbox.open': [SocketHandle];
  'inbox.close': [SocketHandle];
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
