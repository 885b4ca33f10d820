import type { Core } from './core.ts';
import { RtmError } from './errors.ts';
import { InboxPosition } from './resume.ts';
import { ReadyListener, WireState } from './wire.ts';
import type { Notification } from './types.ts';

export type NotificationListener = (notification: Notification) => void;

export interface InboxSubscription {
  /** Resolves when the first replay is over (`inbox-subscribed`); rejects if the subscription ends first. */
  readonly ready: Promise<void>;
  readonly active: boolean;
  unsubscribe(): Promise<void>;
}

class InboxListener extends ReadyListener<void> implements InboxSubscription {
  readonly listener: NotificationListener;
  readonly #inbox: Inbox;

  constructor(inbox: Inbox, listener: NotificationListener) {
    super();
    this.#inbox = inbox;
    this.listener = listener;
  }

  resolve(): void {
    this.settle(undefined);
  }

  unsubscribe(): Promise<void> {
    return this.#inbox.removeSubscription(this);
  }
}

/**
 * The user's inbox (`client.inbox`): one `subscribe-inbox` on the connection shared by its
 * listeners, re-sent after every reconnect with `since` = the newest notification id delivered,
 * so each notification reaches the application once.
 *
 * On Server-Sent Events the same frames ride an event stream (`inbox=`, sse-session.ts), resumed
 * from the last id whenever the stream is reopened.
 */
export class Inbox {
  readonly #core: Core;
  readonly #w: WireState<InboxListener, Notification>;
  #position = new InboxPosition();

  constructor(core: Core) {
    this.#core = core;
    this.#w = new WireState<InboxListener, Notification>(core);
  }

  /** The newest notification id delivered, where a resume starts. */
  get lastId(): string | undefined {
    return this.#position.since;
  }

  /**
   * Adds a listener. The first one subscribes: every retained notification with an id above
   * `since` (all retained ones without it) is replayed, then live ones follow.
   */
  subscribe(listener: NotificationListener, options: { since?: string } = {}): InboxSubscription {
    if (typeof listener !== 'function') throw new TypeError('subscribe(listener): listener must be a function');
    if (options.since !== undefined && (typeof options.since !== 'string' || options.since.length === 0)) {
      throw new RtmError('invalid_request', 'since must be a notification id');
    }
    if (this.#w.listeners.size > 0 && options.since !== undefined) {
      throw new RtmError('invalid_request', 'the inbox is already subscribed: since applies to its first subscription');
    }
    const sub = new InboxListener(this, listener);
    if (this.#w.listeners.size === 0) this.#position = new InboxPosition(options.since);
    this.#w.listeners.add(sub);
    if (this.#w.state === 'subscribed') sub.resolve();
    this.#sync();
    return sub;
  }

  /** @internal */
  connected(): void {
    this.#sync();
  }

  /** @internal */
  connectionLost(): void {
    this.#w.lost();
  }

  /** @internal */
  clientClosed(error: RtmError): void {
    this.#w.closed(error);
  }

  /** @internal */
  onNotification(notification: Notification): void {
    if (!this.#w.live) return;
    if (typeof notification.id !== 'string' || !this.#position.accept(notification.id)) return;
    this.#w.deliver(notification);
  }

  /** @internal */
  onSubscribed(ref: unknown): void {
    if (this.#w.state !== 'subscribing' || ref !== this.#w.subscribeRef) return;
    this.#w.state = 'subscribed';
    this.#w.backoff.reset();
    for (const sub of this.#w.listeners) sub.resolve();
  }

  /** @internal */
  onUnsubscribed(ref: unknown): void {
    if (this.#w.state === 'unsubscribing' && ref === this.#w.unsubscribeRef) {
      this.#w.state = 'none';
      this.#w.unsubscribeRef = undefined;
      this.#w.settleUnsubscribes();
      this.#sync();
    } else if (ref === undefined && this.#w.live) {
      // ended by the server: subscribe again from where we are
      this.#w.state = 'none';
      this.#w.subscribeRef = undefined;
      this.#w.retryLater(0, () => this.#sync());
    }
  }

  /** @internal true when the error answered the inbox's subscribe. */
  onError(ref: unknown, error: RtmError): boolean {
    if (ref === undefined || ref !== this.#w.subscribeRef || this.#w.state !== 'subscribing') return false;
    this.#w.state = 'none';
    this.#w.subscribeRef = undefined;
    this.#core.reportError(error);
    if (error.code === 'unavailable') {
      this.#w.retryLater((error.retryAfter ?? 0) * 1000, () => this.#sync());
    } else {
      this.#w.end(error);
    }
    return true;
  }

  /** @internal */
  removeSubscription(sub: InboxListener): Promise<void> {
    return this.#w.remove(sub, 'unsubscribed before the inbox was ready', () => this.#unsubscribe());
  }

  #sync(): void {
    if (!this.#core.isConnected()) return;
    const wanted = this.#w.wanted();
    if (wanted === 'subscribe') {
      const ref = this.#core.nextRef();
      this.#w.subscribing(ref);
      const since = this.#position.since;
      this.#core.send(since === undefined ? { op: 'subscribe-inbox', ref } : { op: 'subscribe-inbox', ref, since });
    } else if (wanted === 'unsubscribe') {
      this.#unsubscribe();
    }
  }

  #unsubscribe(): void {
    const ref = this.#core.nextRef();
    this.#w.unsubscribing(ref);
    this.#core.send({ op: 'unsubscribe-inbox', ref });
  }
}
