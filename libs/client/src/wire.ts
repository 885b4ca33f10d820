/**
 * What a channel and the inbox both keep about their one subscription on the connection, shared
 * by their listeners: the wire state
 *
 *   none → subscribing (request sent; replay) → subscribed (live) → unsubscribing → none
 *
 * with the refs that answer each step, the retry timer and back-off, the listeners, and the
 * callers waiting for an unsubscribe to be answered.
 */
import { Backoff } from './backoff.ts';
import { Timer } from './clock.ts';
import type { Core } from './core.ts';
import { reportListenerError } from './emitter.ts';
import { RtmError } from './errors.ts';

export type Wire = 'none' | 'subscribing' | 'subscribed' | 'unsubscribing';

/** One listener: its `ready` promise, settled once, and whether it still listens. */
export class ReadyListener<T> {
  readonly ready: Promise<T>;
  active = true;
  settled = false;
  #resolve!: (value: T) => void;
  #reject!: (error: RtmError) => void;

  constructor() {
    this.ready = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // an application that never awaits `ready` must not get an unhandled rejection from it
    this.ready.catch(() => {});
  }

  protected settle(value: T): void {
    if (this.settled) return;
    this.settled = true;
    this.#resolve(value);
  }

  reject(error: RtmError): void {
    if (this.settled) return;
    this.settled = true;
    this.#reject(error);
  }
}

export class WireState<L extends { active: boolean; reject(error: RtmError): void; listener: (item: T) => void }, T> {
  state: Wire = 'none';
  subscribeRef: number | undefined;
  unsubscribeRef: number | undefined;
  readonly listeners = new Set<L>();
  readonly retry: Timer;
  readonly backoff: Backoff;
  #waiters: Array<() => void> = [];

  constructor(core: Core) {
    this.retry = new Timer(core.clock);
    this.backoff = new Backoff(core.retryInitialMs, core.retryMaxMs, core.random);
  }

  /** Calls `sync` again after the back-off's next delay, and at least `atLeastMs` from now. */
  retryLater(atLeastMs: number, sync: () => void): void {
    this.retry.set(Math.max(atLeastMs, this.backoff.next()), sync);
  }

  /** Subscribing or subscribed: frames of this subscription are to be handled. */
  get live(): boolean {
    return this.state === 'subscribing' || this.state === 'subscribed';
  }

  /** The connection is gone: the server forgot the subscription. */
  lost(): void {
    this.state = 'none';
    this.subscribeRef = undefined;
    this.unsubscribeRef = undefined;
    this.retry.clear();
    this.settleUnsubscribes();
  }

  /** Hands `item` to every listener still listening; one that throws is reported and the others still get it. */
  deliver(item: T): void {
    for (const listener of [...this.listeners]) {
      if (!listener.active) continue;
      try {
        listener.listener(item);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  /** The client was closed: pending `ready` promises reject. */
  closed(error: RtmError): void {
    this.lost();
    for (const listener of this.listeners) listener.reject(error);
  }

  /** The subscription is over for good (banned, forbidden, refused): every listener is dropped. */
  end(error: RtmError): void {
    this.retry.clear();
    for (const listener of this.listeners) {
      listener.active = false;
      listener.reject(error);
    }
    this.listeners.clear();
    this.settleUnsubscribes();
  }

  /**
   * Drops one listener (its `ready` rejects with `reason` if still pending). The last one ends the
   * subscription: `unsubscribe` sends the request, and the promise resolves once it is answered.
   */
  remove(listener: L, reason: string, unsubscribe: () => void): Promise<void> {
    if (!listener.active) return Promise.resolve();
    listener.active = false;
    this.listeners.delete(listener);
    listener.reject(new RtmError('unsubscribed', reason));
    if (this.listeners.size > 0) return Promise.resolve();
    this.retry.clear();
    if (this.state === 'none') return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      if (this.state !== 'unsubscribing') unsubscribe();
    });
  }

  /** What the connection needs next: a subscribe (listeners, none on the wire, no retry waiting), an unsubscribe (no listeners left), or nothing. */
  wanted(): 'subscribe' | 'unsubscribe' | undefined {
    const wanted = this.listeners.size > 0;
    if (wanted && this.state === 'none' && !this.retry.pending) return 'subscribe';
    if (!wanted && this.live) return 'unsubscribe';
    return undefined;
  }

  /** A subscribe request `ref` was sent. */
  subscribing(ref: number): void {
    this.subscribeRef = ref;
    this.state = 'subscribing';
  }

  /** An unsubscribe request `ref` was sent: frames of the old subscription are ignored from now on. */
  unsubscribing(ref: number): void {
    this.unsubscribeRef = ref;
    this.subscribeRef = undefined;
    this.state = 'unsubscribing';
  }

  settleUnsubscribes(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
