/**
 * What useChannel does, without React: subscribe live, wait until the server confirmed it, read
 * the last `history` messages, hand them over oldest first, then what arrived meanwhile, then live
 * items as they come. Messages and changes (`update`, `summary`, `retract`) share one queue while
 * the history is read, so they reach the handlers in the order they arrived: a change that came
 * before the history was delivered follows the message it changes, and the last change of a
 * message applied is its latest. A persisted message is handed over once (by seq).
 */
import type { Channel, Message, MessageUpdate, ReactionsUpdate, Retraction, RtmError } from '@rtm/client';

export interface ChannelHandlers {
  message(message: Message): void;
  update?(update: MessageUpdate): void;
  summary?(summary: ReactionsUpdate): void;
  retract?(retraction: Retraction): void;
  /** The history has been delivered; live items flow. */
  ready(): void;
  /** The subscription or the history read was refused. */
  error(error: RtmError): void;
}

type Item =
  | { kind: 'message'; value: Message }
  | { kind: 'update'; value: MessageUpdate }
  | { kind: 'summary'; value: ReactionsUpdate }
  | { kind: 'retract'; value: Retraction };

/** Starts following `channel`; the returned function stops (unsubscribes, nothing more is handed over). */
export function followChannel(channel: Channel, historySize: number, delta: 'fossil' | undefined, handlers: () => ChannelHandlers): () => void {
  let live = true;
  let lastSeq = 0;
  let held: Item[] | null = []; // what arrives before the history is delivered
  const hand = (item: Item) => {
    if (!live) return;
    const to = handlers();
    switch (item.kind) {
      case 'message':
        if (!item.value.ephemeral) {
          if (item.value.seq <= lastSeq) return;
          lastSeq = item.value.seq;
        }
        return to.message(item.value);
      case 'update':
        return to.update?.(item.value);
      case 'summary':
        return to.summary?.(item.value);
      case 'retract':
        return to.retract?.(item.value);
    }
  };
  const take = (item: Item) => (held ? held.push(item) : hand(item));
  const offs = [
    channel.on('update', (value) => take({ kind: 'update', value })),
    channel.on('summary', (value) => take({ kind: 'summary', value })),
    channel.on('retract', (value) => take({ kind: 'retract', value })),
  ];
  const subscription = channel.subscribe((value) => take({ kind: 'message', value }), delta === undefined ? {} : { delta });
  subscription.ready
    .then(async () => {
      const recent: Message[] = [];
      if (historySize > 0) {
        for await (const message of channel.history({ limit: historySize })) {
          recent.push(message);
          if (recent.length >= historySize) break;
        }
      }
      for (const message of recent.reverse()) hand({ kind: 'message', value: message });
      const waiting = held ?? [];
      held = null;
      for (const item of waiting) hand(item);
      if (live) handlers().ready();
    })
    .catch((error: RtmError) => live && handlers().error(error));
  return () => {
    live = false;
    for (const off of offs) off();
    void subscription.unsubscribe().catch(() => {});
  };
}
