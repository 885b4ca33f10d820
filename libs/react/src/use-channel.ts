/**
 * useChannel(channelId, onMessage, {history}): the channel's recent history, then its live
 * messages, each once and in seq order, resumed by @rtm/client after every reconnect.
 *
 * How: subscribe live (the Client's one subscription of the channel, shared with any other hook
 * of it), wait until the server confirmed it, then read the last `history` messages
 * (`channel.history`, newest first) and hand them to `onMessage` oldest first, then the live
 * messages that arrived meanwhile, then live ones as they come. A seq is delivered once: the
 * history read after the subscription overlaps the live stream, never leaves a gap. After a
 * reconnect the Client resubscribes from the last seq it delivered, so nothing is missed or
 * repeated. Ephemeral messages (live only, no seq of their own) are passed through as they come.
 */
import * as React from 'react';
import type { Channel, Message, RtmError } from '@rtm/client';
import { useRealtimeClient } from './provider.ts';

export interface UseChannelOptions {
  /** How many of the latest persisted messages to deliver before the live ones (0–500, default 50; 0: live only). */
  history?: number;
  /**
   * `"fossil"`: live messages come from the server as deltas against the previous one (passed to
   * `channel.subscribe`; `onMessage` still gets every message whole). The channel's namespace must
   * turn `delta` on. Like the subscription, it is the first hook's of the channel (later ones share it).
   */
  delta?: 'fossil';
}

export interface ChannelState {
  /** The @rtm/client Channel: `publish`, `retract`, `presence`, `on(…)`. */
  channel: Channel;
  /** True once the history has been delivered and live messages flow. */
  ready: boolean;
  /** A refused subscription or history read (e.g. `forbidden`), null otherwise. */
  error: RtmError | null;
}

export function useChannel(channelId: string, onMessage: (message: Message) => void, options: UseChannelOptions = {}): ChannelState {
  const client = useRealtimeClient();
  const historySize = options.history ?? 50;
  const delta = options.delta;
  const listener = React.useRef(onMessage);
  listener.current = onMessage;
  const channel = client.channel(channelId);
  const [status, setStatus] = React.useState<{ channel: Channel; ready: boolean; error: RtmError | null }>({ channel, ready: false, error: null });

  React.useEffect(() => {
    let live = true;
    let lastSeq = 0;
    let held: Message[] | null = []; // live messages that arrive before the history is delivered
    const deliver = (message: Message) => {
      if (!live) return;
      if (!message.ephemeral) {
        if (message.seq <= lastSeq) return;
        lastSeq = message.seq;
      }
      listener.current(message);
    };
    setStatus({ channel, ready: false, error: null });
    const subscription = channel.subscribe((message) => (held ? held.push(message) : deliver(message)), delta === undefined ? {} : { delta });
    const fail = (error: RtmError) => live && setStatus({ channel, ready: false, error });
    subscription.ready.then(async () => {
      const recent: Message[] = [];
      if (historySize > 0) {
        for await (const message of channel.history({ limit: historySize })) {
          recent.push(message);
          if (recent.length >= historySize) break;
        }
      }
      for (const message of recent.reverse()) deliver(message);
      const waiting = held ?? [];
      held = null;
      for (const message of waiting) deliver(message);
      if (live) setStatus({ channel, ready: true, error: null });
    }).catch(fail);
    return () => {
      live = false;
      void subscription.unsubscribe().catch(() => {});
    };
  }, [channel, historySize, delta]);

  return status.channel === channel ? status : { channel, ready: false, error: null };
}
