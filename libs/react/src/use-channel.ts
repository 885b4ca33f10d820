/**
 * useChannel(channelId, onMessage, {history, onUpdate, onSummary, onRetract}): the channel's
 * recent history, then its live messages, each once and in seq order, resumed by @rtm/client
 * after every reconnect; and the changes of its messages (edits, reactions, retractions) in the
 * order they happened, after the messages they change.
 *
 * How (follow-channel.ts): subscribe live (the Client's one subscription of the channel, shared
 * with any other hook of it), wait until the server confirmed it, then read the last `history`
 * messages (`channel.history`, newest first) and hand them to `onMessage` oldest first, then the
 * live messages and changes that arrived meanwhile, then live ones as they come. A seq is
 * delivered once: the history read after the subscription overlaps the live stream, never leaves
 * a gap. After a reconnect the Client resubscribes from its position (the last seq or change it
 * delivered): messages published meanwhile come to `onMessage`, older messages changed meanwhile
 * to `onUpdate` / `onRetract`. Ephemeral messages (live only, no seq of their own) are passed
 * through as they come. `withUpdate`, `withSummary` and `withRetraction` (message-list.ts) apply
 * the changes to a list of messages.
 */
import * as React from 'react';
import type { Channel, Message, MessageUpdate, ReactionsUpdate, Retraction, RtmError } from '@rtm/client';
import { useRealtimeClient } from './provider.ts';
import { followChannel } from './follow-channel.ts';

export interface UseChannelOptions {
  /** How many of the latest persisted messages to deliver before the live ones (0–500, default 50; 0: live only). */
  history?: number;
  /**
   * `"fossil"`: live messages come from the server as deltas against the previous one (passed to
   * `channel.subscribe`; `onMessage` still gets every message whole). The channel's namespace must
   * turn `delta` on. Like the subscription, it is the first hook's of the channel (later ones share it).
   */
  delta?: 'fossil';
  /** A message changed (an edit; after a resume, any change of an older message): the message as it is now. */
  onUpdate?: (update: MessageUpdate) => void;
  /** A message's reactions changed: its summary now (`{}` when none is left). */
  onSummary?: (summary: ReactionsUpdate) => void;
  /** A message was retracted. */
  onRetract?: (retraction: Retraction) => void;
}

export interface ChannelState {
  /** The @rtm/client Channel: `publish`, `edit`, `react`, `retract`, `presence`, `on(…)`. */
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
  // the latest callbacks of each render, read when something arrives
  const callbacks = React.useRef({ onMessage, ...options });
  callbacks.current = { onMessage, ...options };
  const channel = client.channel(channelId);
  const [status, setStatus] = React.useState<{ channel: Channel; ready: boolean; error: RtmError | null }>({ channel, ready: false, error: null });

  React.useEffect(() => {
    setStatus({ channel, ready: false, error: null });
    return followChannel(channel, historySize, delta, () => {
      const { onMessage: message, onUpdate, onSummary, onRetract } = callbacks.current;
      return {
        message,
        update: onUpdate,
        summary: onSummary,
        retract: onRetract,
        ready: () => setStatus({ channel, ready: true, error: null }),
        error: (error) => setStatus({ channel, ready: false, error }),
      };
    });
  }, [channel, historySize, delta]);

  return status.channel === channel ? status : { channel, ready: false, error: null };
}
