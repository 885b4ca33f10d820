import { Timer, type Clock } from './clock.ts';

/** A ping not answered (by any frame) within this time drops the connection. */
export const PONG_TIMEOUT_MS = 10_000;

/**
 * Keeps a quiet connection honest: after `intervalMs` without a frame from the server, a ping;
 * no frame at all within PONG_TIMEOUT_MS after it, and the connection is dropped (a half-open
 * TCP connection never closes by itself).
 */
export class Heartbeat {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #timer: Timer;
  readonly #ping: () => void;
  readonly #drop: (reason: string) => void;
  #framesReceived = 0;
  #pingAtFrame: number | undefined;
  #lastReceivedAt = 0;

  constructor(clock: Clock, intervalMs: number, host: { ping(): void; drop(reason: string): void }) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#timer = new Timer(clock);
    this.#ping = () => host.ping();
    this.#drop = (reason) => host.drop(reason);
  }

  /** A frame arrived. */
  received(): void {
    this.#framesReceived += 1;
    this.#lastReceivedAt = this.#clock.now();
  }

  /** The connection is up. */
  start(): void {
    this.#pingAtFrame = undefined;
    this.#timer.set(this.#intervalMs, () => this.#beat());
  }

  stop(): void {
    this.#timer.clear();
  }

  #beat(): void {
    if (this.#pingAtFrame !== undefined) {
      if (this.#framesReceived === this.#pingAtFrame) {
        this.#drop(`no answer to a ping within ${PONG_TIMEOUT_MS} ms`);
        return;
      }
      this.#pingAtFrame = undefined;
    }
    const idle = this.#clock.now() - this.#lastReceivedAt;
    if (idle >= this.#intervalMs) {
      this.#pingAtFrame = this.#framesReceived;
      this.#ping();
      this.#timer.set(PONG_TIMEOUT_MS, () => this.#beat());
    } else {
      this.#timer.set(this.#intervalMs - idle, () => this.#beat());
    }
  }
}

/** Browsers announce when the network comes back: `back` runs then. Returns how to stop listening (a no-op outside browsers). */
export function onNetworkBack(back: () => void): () => void {
  const target = globalThis as { addEventListener?: (name: string, fn: () => void) => void; removeEventListener?: (name: string, fn: () => void) => void };
  if (typeof target.addEventListener !== 'function' || typeof target.removeEventListener !== 'function') return () => {};
  target.addEventListener('online', back);
  return () => target.removeEventListener!('online', back);
}
