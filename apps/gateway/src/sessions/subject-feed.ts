import { decodeText, type NatsConnection, type Subscription } from '@rtm/bus';

/** `text` is the frame as received, so a listener that relays it need not serialise it again. */
export type FrameListener = (frame: Record<string, unknown>, text: string) => void;

interface Entry {
  subscription: Subscription;
  listeners: Set<FrameListener>;
}

/**
 * Reference-counted NATS subscriptions: one subscription per subject however many local sockets
 * or modules listen to it, dropped with its last listener. Frames are JSON objects; anything
 * else is ignored. Guarantee: once `flush()` has resolved after `subscribe`, every frame
 * published afterwards on the subject reaches the listener (NATS core, in publisher order).
 */
export class SubjectFeed {
  private readonly nc: NatsConnection;
  private readonly entries = new Map<string, Entry>();
  /** The round trip on its way, and the one the callers since then share. */
  private flushing: Promise<void> | undefined;
  private nextFlush: Promise<void> | undefined;

  constructor(nc: NatsConnection) {
    this.nc = nc;
  }

  subscribe(subject: string, listener: FrameListener): () => void {
    let entry = this.entries.get(subject);
    if (!entry) {
      const listeners = new Set<FrameListener>();
      const subscription = this.nc.subscribe(subject, {
        callback: (error, msg) => {
          if (error) return;
          let frame: unknown;
          const text = decodeText(msg.data);
          try {
            frame = JSON.parse(text);
          } catch {
            return;
          }
          if (typeof frame !== 'object' || frame === null) return;
          for (const each of [...listeners]) each(frame as Record<string, unknown>, text);
        },
      });
      entry = { subscription, listeners };
      this.entries.set(subject, entry);
    }
    entry.listeners.add(listener);
    const current = entry;
    return () => {
      if (!current.listeners.delete(listener) || current.listeners.size > 0) return;
      if (this.entries.get(subject) === current) this.entries.delete(subject);
      current.subscription.unsubscribe();
    };
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
