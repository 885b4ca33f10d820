import { Timer, type Clock } from './clock.ts';
import { Pacer } from './pacer.ts';
import type { WebSocketLike } from './types.ts';

/** What the client sends per second at most (the server's defaults are 500 frames and 2 MiB). */
export const SEND_FRAMES_PER_SECOND = 200;
export const SEND_BYTES_PER_SECOND = 1024 * 1024;
const OPEN = 1; // WebSocket.OPEN, which Node 20 has no global for

/** The frames of the current socket, sent in order at the pace the server allows (pacer.ts). */
export class PacedSender {
  readonly #clock: Clock;
  readonly #pacer: Pacer;
  readonly #timer: Timer;
  #socket: WebSocketLike | undefined;
  /** Frames waiting for the pacer, oldest first. */
  #queue: string[] = [];

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#pacer = new Pacer(clock.now(), SEND_FRAMES_PER_SECOND, SEND_BYTES_PER_SECOND);
    this.#timer = new Timer(clock);
  }

  attach(socket: WebSocketLike): void {
    this.detach();
    this.#socket = socket;
  }

  /**
   * The socket is gone: what waits for it is dropped (the publish queue keeps what must be sent
   * again). With `socket`, only if that is the one attached (a newer socket keeps its queue).
   */
  detach(socket?: WebSocketLike): void {
    if (socket !== undefined && socket !== this.#socket) return;
    this.#socket = undefined;
    this.#queue = [];
    this.#timer.clear();
  }

  send(text: string): void {
    if (!this.#socket) return;
    this.#queue.push(text);
    if (this.#queue.length === 1) this.#drain();
  }

  #drain(): void {
    const socket = this.#socket;
    while (socket && this.#queue.length > 0) {
      const text = this.#queue[0]!;
      const wait = this.#pacer.take(utf8Length(text), this.#clock.now());
      if (wait > 0) {
        this.#timer.set(wait, () => this.#drain());
        return;
      }
      // a closing socket: browsers drop the frame with a console error instead of throwing;
      // its close event requeues what was in flight
      if (socket.readyState !== OPEN) return;
      this.#queue.shift();
      try {
        socket.send(text);
      } catch {
        return;
      }
    }
  }
}

/** The UTF-8 size of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
