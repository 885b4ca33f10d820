/**
 * A socket's inbound rate: two token buckets, frames and bytes, each holding one second's worth
 * and refilled continuously. A client that stays at or under both rates is never refused, bursts
 * included up to one second's worth; over any window of T seconds at most rate × (T + 1) frames
 * (and bytes) are admitted.
 */
export interface InboundRates {
  framesPerSecond: number;
  bytesPerSecond: number;
}

export class InboundLimit {
  private readonly rates: InboundRates;
  private frames: number;
  private bytes: number;
  private at: number;

  constructor(rates: InboundRates, now: number) {
    this.rates = rates;
    this.frames = rates.framesPerSecond;
    this.bytes = rates.bytesPerSecond;
    this.at = now;
  }

  /** Takes one frame of `size` bytes; false when either bucket cannot pay for it (nothing is taken). */
  admit(size: number, now: number): boolean {
    const elapsed = Math.max(0, now - this.at) / 1000;
    this.at = Math.max(this.at, now);
    this.frames = Math.min(this.rates.framesPerSecond, this.frames + elapsed * this.rates.framesPerSecond);
    this.bytes = Math.min(this.rates.bytesPerSecond, this.bytes + elapsed * this.rates.bytesPerSecond);
    if (this.frames < 1 || this.bytes < size) return false;
    this.frames -= 1;
    this.bytes -= size;
    return true;
  }
}
