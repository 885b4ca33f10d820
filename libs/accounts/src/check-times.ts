/**
 * How long a password check takes here, as sign-in answers it for a known account: the queue
 * and the hash, measured end to end, kept per gate lane (the most recent `size` of each). A
 * sign-in with an unknown e-mail hashes nothing: it answers after a duration drawn from these,
 * so its time follows the same distribution as a wrong password's, queueing included, without
 * taking a place in the gate. Before the first measurement of a lane, the other lane's are used,
 * then `fallbackMs` (the cost of one hash at the default parameters on a typical core).
 */
import type { HashLane } from './hash-gate.ts';

export const CHECK_TIMES_KEPT = 64;
export const CHECK_FALLBACK_MS = 350;

export class CheckTimes {
  private readonly kept: Record<HashLane, number[]> = { first: [], ordinary: [] };
  private readonly next: Record<HashLane, number> = { first: 0, ordinary: 0 };
  private readonly size: number;
  private readonly fallbackMs: number;

  constructor(size = CHECK_TIMES_KEPT, fallbackMs = CHECK_FALLBACK_MS) {
    this.size = size;
    this.fallbackMs = fallbackMs;
  }

  record(lane: HashLane, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const kept = this.kept[lane];
    if (kept.length < this.size) kept.push(ms);
    else kept[this.next[lane]] = ms;
    this.next[lane] = (this.next[lane] + 1) % this.size;
  }

  /** A duration for a check in `lane` that did not happen: one of the kept ones, drawn with `random` in [0, 1). */
  draw(lane: HashLane, random: () => number = Math.random): number {
    const own = this.kept[lane];
    const from = own.length > 0 ? own : this.kept[lane === 'first' ? 'ordinary' : 'first'];
    if (from.length === 0) return this.fallbackMs;
    return from[Math.min(from.length - 1, Math.floor(random() * from.length))]!;
  }
}
