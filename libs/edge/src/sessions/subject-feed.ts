import { decodeText, type Msg, type NatsConnection, type Subscription } from '@rtm/bus';

/** `text` is the frame as received, so a listener that relays it need not serialise it again. */
export type FrameListener = (frame: Record<string, unknown>, text: string) => void;

interface Entry {
  subscription: Subscription;
  /** One listener alone (most subjects: one user's, one channel's), a Set from the second on. */
  listeners: FrameListener | Set<FrameListener>;
}

/**
 * Reference-counted NATS subscriptions: one subscription per subject however many local sockets
 * or modules listen to it, dropped with its last listener. Frames are JSON objects; anything
 * else is ignored. Guarantee: once `flush()` has resolved after `subscribe`, every frame
 * published afterwards on the subject reaches the listener (NATS core, in publisher order).
 *
 * A gateway holds one of these per user with a socket on it (kicks), so an entry is kept small:
 * every subscription shares one callback, which finds its entry by the message's subject (so
 * subjects are exact, never wildcards), and a lone listener is kept without a Set.
 */
export class SubjectFeed {
  private readonly nc: NatsConnection;
  private readonly entries = new Map<string, Entry>();
  /** The round trip on its way, and the one the callers since then share. */
  private flushing: Promise<void> | undefined;
  private nextFlush: Promise<void> | undefined;
  private readonly callback = (error: Error | null, msg: Msg): void => {
    if (error) return;
    const entry = this.entries.get(msg.subject);
    if (!entry) return;
    let frame: unknown;
    const text = decodeText(msg.data);
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const { listeners } = entry;
    if (typeof listeners === 'function') listeners(frame as Record<string, unknown>, text);
    else for (const each of [...listeners]) each(frame as Record<string, unknown>, text);
  };

  constructor(nc: NatsConnection) {
    this.nc = nc;
  }

  subscribe(subject: string, listener: FrameListener): void {
    if (/[*>]/.test(subject)) throw new Error(`SubjectFeed takes exact subjects, not ${subject}`);
    const entry = this.entries.get(subject);
    if (!entry) {
      this.entries.set(subject, { subscription: this.nc.subscribe(subject, { callback: this.callback }), listeners: listener });
    } else if (typeof entry.listeners === 'function') {
      if (entry.listeners !== listener) entry.listeners = new Set([entry.listeners, listener]);
    } else {
      entry.listeners.add(listener);
    }
  }

  /** Removes the listener; the subject's subscription goes with its last one. */
  unsubscribe(subject: string, listener: FrameListener): void {
    const entry = this.entries.get(subject);
    if (!entry) return;
    if (typeof entry.listeners === 'function') {
      if (entry.listeners !== listener) return;
    } else {
      if (!entry.listeners.delete(listener)) return;
      if (entry.listeners.size > 0) return;
    }
    this.entries.delete(subject);
    entry.subscription.unsubscribe();
  }

  /**
   * Resolves once the server has seen every subscription made so far. One round trip at a time:
   * the callers that come while one is on its way share the next, sent after it (a storm of
   * subscriptions, each making sure its kick subjects are live, costs a few round trips, not one
   * each).
   */
  flush(): Promise<void> {
    if (!this.flushing) return this.startFlush();
    return (this.nextFlush ??= this.flushing
      .catch(() => {})
      .then(() => {
        this.nextFlush = undefined;
        return this.startFlush();
      }));
  }

  private startFlush(): Promise<void> {
    const flushing = this.nc.flush().finally(() => {
      if (this.flushing === flushing) this.flushing = undefined;
    });
    this.flushing = flushing;
    return flushing;
  }
}
