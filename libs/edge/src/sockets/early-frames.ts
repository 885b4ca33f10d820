/**
 * Client frames that arrive before a socket is open (authenticated, replayed): held in arrival
 * order and handled once it is, so a client may send as soon as its socket connects. At most
 * MAX_EARLY_FRAMES / MAX_EARLY_BYTES of them: more is a misbehaving client (the caller closes
 * the socket with SOCKET_CLOSE.tooEarly, 4429).
 */
import type { RawData } from 'ws';
import { sizeOf } from '../sessions/socket-link.ts';
import { MAX_FRAME_BYTES } from './frame-limits.ts';

export const MAX_EARLY_FRAMES = 64;
/** Their bytes: two of the largest frames. */
export const MAX_EARLY_BYTES = 2 * MAX_FRAME_BYTES;

export type Frame = [data: RawData, isBinary: boolean];

export class EarlyFrames {
  #held: Frame[] | null = [];
  #bytes = 0;

  /** `held` while the socket opens, `over` past the limit (close 4429), `live` once released (handle it now). */
  hold(data: RawData, isBinary: boolean): 'held' | 'over' | 'live' {
    if (!this.#held) return 'live';
    this.#bytes += sizeOf(data);
    if (this.#held.length >= MAX_EARLY_FRAMES || this.#bytes > MAX_EARLY_BYTES) return 'over';
    this.#held.push([data, isBinary]);
    return 'held';
  }

  /** The oldest held frame; frames that arrive while earlier ones are handled are held behind them. */
  next(): Frame | undefined {
    return this.#held?.shift();
  }

  /** From now on frames are live; returns those still held, in order. */
  release(): Frame[] {
    const rest = this.#held ?? [];
    this.#held = null;
    return rest;
  }
}
