/**
 * Paces what the client sends: a token bucket of frames and one of bytes, each refilled at its
 * rate per second and holding one second's worth. The server closes a connection that goes over
 * its inbound rate (4429; by default 500 frames and 2 MiB per second on /v1/connect); a client
 * re-subscribing many channels and re-sending a long offline queue at once would otherwise trip
 * it, reconnect, and trip it again.
 */
export class Pacer {
  readonly #framesPerSecond: number;
  readonly #bytesPerSecond: number;
  #frames: number;
  #bytes: number;
  #at: number;

  constructor(now: number, framesPerSecond: number, bytesPerSecond: number) {
    this.#framesPerSecond = framesPerSecond;
    this.#bytesPerSecond = bytesPerSecond;
    this.#frames = framesPerSecond;
    this.#bytes = bytesPerSecond;
    this.#at = now;
  }

  /** Takes one frame of `size` bytes: 0 when it may go now, else the ms to wait (nothing taken). */
  take(size: number, now: number): number {
    const elapsed = Math.max(0, now - this.#at) / 1000;
    this.#at = now;
    this.#frames = Math.min(this.#framesPerSecond, this.#frames + elapsed * this.#framesPerSecond);
    this.#bytes = Math.min(this.#bytesPerSecond, this.#bytes + elapsed * this.#bytesPerSecond);
    const bytes = Math.min(size, this.#bytesPerSecond);
    if (this.#frames >= 1 && this.#bytes >= bytes) {
      this.#frames -= 1;
      this.#bytes -= bytes;
      return 0;
    }
    const frameWait = this.#frames >= 1 ? 0 : ((1 - this.#frames) / this.#framesPerSecond) * 1000;
    const byteWait = this.#bytes >= bytes ? 0 : ((bytes - this.#bytes) / this.#bytesPerSecond) * 1000;
    return Math.max(1, Math.ceil(Math.max(frameWait, byteWait)));
  }
}
