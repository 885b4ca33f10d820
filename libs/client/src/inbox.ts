import { Backoff } from './backoff.ts';
import { Timer } from './clock.ts';
import type { Core } from './core.ts';
import { reportListenerError } from './emitter.ts';
import { RtmError } from './errors.ts';
import { InboxPosition } from './resume.ts';
import type { Notification } from './types.ts';

export type NotificationListener = (notification: Notification) => void;

export interface InboxSubscription {
  /** Resolves when the first replay is over (`inbox-subscribed`); rejects if the subscription ends first. */
  readonly ready: Promise<void>;
  readonly active: boolean;
  unsubscribe(): Promise<void>;
}

class InboxListener implements InboxSubscription {
  readonly ready: Promise<void>;
  readonly listener: NotificationListener;
  readonly #inbox: Inbox;
  active = true;
  settled = false;
  #resolve!: () => void;
  #reject!: (error: RtmError) => void;

  constructor(inbox: Inbox, listener: NotificationListener) {
    this.#inbox = inbox;
    this.listener = listener;
    this.ready = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.ready.catch(() => {});
  }

  resolve(): void {
    if (this.settled) return;
    this.settled = true;
    this.#resolve();
  }

  reject(error: RtmError): void {
    if (this.settled) return;
    this.settled = true;
    this.#reject(error);
  }

  unsubscribe(): Promise<void> {
    return this.#inbox.removeSubscription(this);
  }
}

type Wire = 'none' | 'subscribing' | 'subscribed' | 'unsubscribing';

/**
 * The user's inbox (`client.inbox`): one `subscribe-inbox` on the connection shared by its
 * listeners, re-sent after every reconnect with `since` = the newest notification id delivered,
 * so each notification reaches the application once.
 */
export class Inbox {
  readonly #core: Core;
  readonly #subs = new Set<InboxListener>();
  #position = new InboxPosition();
  #wire: Wire = 'none';
  #subscribeRef: number | undefined;
  #unsubscribeRef: number | undefined;
  #unsubscribeWaiters: Array<() => void> = [];
  readonly #retry: Timer;
  readonly #backoff: Backoff;

  constructor(core: Core) {
    this.#core = core;
    this.#retry = new Timer(core.clock);
    this.#backoff = new Backoff(core.retryInitialMs, core.retryMaxMs, core.random);
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
    if (this.#subs.size > 0 && options.since !== undefined) {
      throw new RtmError('invalid_request', 'the inbox is already subscribed: since applies to its first subscription');
    }
    const sub = new InboxListener(this, listener);
    if (this.#subs.size === 0) this.#position = new InboxPosition(options.since);
    this.#subs.add(sub);
    if (this.#wire === 'subscribed') sub.resolve();
    this.#sync();
    return sub;
  }

  /** @internal */
  connected(): void {
    this.#sync();
  }

  /** @internal */
  connectionLost(): void {
    this.#wire = 'none';
    this.#subscribeRef = undefined;
    this.#unsubscribeRef = undefined;
    this.#retry.clear();
    this.#settleUnsubscribes();
  }

  /** @internal */
  clientClosed(error: RtmError): void {
    this.connectionLost();
    for (const sub of this.#subs) sub.reject(error);
  }

  /** @internal */
  onNotification(notification: Notification): void {
    if (this.#wire !== 'subscribing' && this.#wire !== 'subscribed') return;
    if (typeof notification.id !== 'string' || !this.#position.accept(notification.id)) return;
    for (const sub of [...this.#subs]) {
      if (!sub.active) continue;
      try {
        sub.listener(notification);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  /** @internal */
  onSubscribed(ref: unknown): void {
    if (this.#wire !== 'subscribing' || ref !== this.#subscribeRef) return;
    this.#wire = 'subscribed';
    this.#backoff.reset();
    for (const sub of this.#subs) sub.resolve();
  }

  /** @internal */
  onUnsubscribed(ref: unknown): void {
    if (this.#wire === 'unsubscribing' && ref === this.#unsubscribeRef) {
      this.#wire = 'none';
      this.#unsubscribeRef = undefined;
      this.#settleUnsubscribes();
      this.#sync();
    } else if (ref === undefined && (this.#wire === 'subscribing' || this.#wire === 'subscribed')) {
      // ended by the server: subscribe again from where we are
      this.#wire = 'none';
      this.#subscribeRef = undefined;
      this.#retry.set(this.#backoff.next(), () => this.#sync());
    }
  }

  /** @internal true when the error answered the inbox's subscribe. */
  onError(ref: unknown, error: RtmError): boolean {
    if (ref === undefined || ref !== this.#subscribeRef || this.#wire !== 'subscribing') return false;
    this.#wire = 'none';
    this.#subscribeRef = undefined;
    this.#core.reportError(error);
    if (error.code === 'unavailable') {
      this.#retry.set(Math.max((error.retryAfter ?? 0) * 1000, this.#backoff.next()), () => this.#sync());
    } else {
      for (const sub of this.#subs) {
        sub.active = false;
        sub.reject(error);
      }
      this.#subs.clear();
    }
    return true;
  }

  /** @internal */
  removeSubscription(sub: InboxListener): Promise<void> {
    if (!sub.active) return Promise.resolve();
    sub.active = false;
    this.#subs.delete(sub);
    sub.reject(new RtmError('unsubscribed', 'unsubscribed before the inbox was ready'));
    if (this.#subs.size > 0) return Promise.resolve();
    this.#retry.clear();
    if (this.#wire === 'none') return Promise.resolve();
    return new Promise((resolve) => {
      this.#unsubscribeWaiters.push(resolve);
      if (this.#wire !== 'unsubscribing') this.#unsubscribe();
    });
  }

  #sync(): void {
    if (!this.#core.isConnected()) return;
    const wanted = this.#subs.size > 0;
    if (wanted && this.#wire === 'none' && !this.#retry.pending) {
      const ref = this.#core.nextRef();
      this.#subscribeRef = ref;
      this.#wire = 'subscribing';
      const since = this.#position.since;
      this.#core.send(since === undefined ? { op: 'subscribe-inbox', ref } : { op: 'subscribe-inbox', ref, since });
    } else if (!wanted && (this.#wire === 'subscribing' || this.#wire === 'subscribed')) {
      this.#unsubscribe();
    }
  }

  #unsubscribe(): void {
    const ref = this.#core.nextRef();
    this.#unsubscribeRef = ref;
    this.#subscribeRef = undefined;
    this.#wire = 'unsubscribing';
    this.#core.send({ op: 'unsubscribe-inbox', ref });
  }

  #settleUnsubscribes(): void {
    const waiters = this.#unsubscribeWaiters;
    this.#unsubscribeWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
