/**
 * The most arrivals in any window of the times `at` (ms) beyond what a bucket of `rate` sends
 * refilled at `rate` per second allows there: rate + rate x the window's length. `slackMs` widens
 * each window by the jitter between a send's start (what the bucket counts) and its arrival: the
 * sends behind a window of arrivals started within it or up to that jitter before it (a new
 * connection's set-up, the dispatcher's or the receiver's turn for a core on a busy machine).
 * At most 0 when the bucket held.
 */
export function excessOverBucket(at: readonly number[], rate: number, slackMs: number): number {
  const sorted = [...at].sort((a, b) => a - b);
  let worst = -Infinity;
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i; j < sorted.length; j++) {
      const allowed = rate + (rate * (sorted[j]! - sorted[i]! + slackMs)) / 1000;
      worst = Math.max(worst, j - i + 1 - allowed);
    }
  }
  return worst;
}

/** How late a send may arrive compared with another on this shared, busy machine. */
export const ARRIVAL_JITTER_MS = 500;
