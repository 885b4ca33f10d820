/**
 * A listener on a channel and its handle (channel.ts): every listener of a channel shares the
 * channel's one subscription on the connection, and the last one to unsubscribe ends it.
 */
import type { Channel } from './channel.ts';
import type { Message } from './types.ts';
import { ReadyListener } from './wire.ts';

export type MessageListener = (message: Message) => void;

/** A listener's handle on a channel subscription. */
export interface Subscription {
  readonly channel: Channel;
  /** Resolves on the first `subscribed` (`lastSeq`: where the server's replay ended); rejects if it ends first. */
  readonly ready: Promise<{ lastSeq: number }>;
  /** False once unsubscribed or ended by the server. */
  readonly active: boolean;
  /** Stops the listener; the last one of the channel unsubscribes on the server. */
  unsubscribe(): Promise<void>;
}

export class ChannelSubscription extends ReadyListener<{ lastSeq: number }> implements Subscription {
  readonly channel: Channel;
  readonly listener: MessageListener;

  constructor(channel: Channel, listener: MessageListener) {
    super();
    this.channel = channel;
    this.listener = listener;
  }

  resolve(lastSeq: number): void {
    this.settle({ lastSeq });
  }

  unsubscribe(): Promise<void> {
    return this.channel.removeSubscription(this);
  }
}
