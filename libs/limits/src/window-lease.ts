/**
 * The arithmetic of cluster-wide rate limits, kept pure so it can be tested without a cluster.
 *
 * Time is cut into fixed one-second windows. For each (limit, key, window) the cluster keeps one
 * shared counter: how many admissions have been handed out to gateways so far. A gateway leases
 * a chunk of them at a time (`grantLease`) and admits locally from its lease (`LocalWindow`), so
 * most requests cost no shared operation. The counter never passes the limit, so however many
 * gateways there are, together they admit at most the limit per window; one gateway alone can
 * lease the whole limit. Leased admissions a gateway does not use by the window's end are lost
 * (the cost of sharing is under-admission, never over-admission); leases shrink as the window's
 * remainder shrinks, so what one gateway can strand is small.
 */

export const WINDOW_MS = 1_000;

export const windowOf = (now: number): number => Math.floor(now / WINDOW_MS);

/** Milliseconds until the window that holds `now` ends. */
export const msLeftInWindow = (now: number): number => WINDOW_MS - (now % WINDOW_MS);

/**
 * How many admissions to grant a gateway, given what the window has already handed out:
 * at most a tenth of the limit, at most an eighth of what remains (so the last admissions of a
 * window are spread among the gateways asking for them), at least one while any remain. A
 * gateway that needs more at once for one weighted event (`need`, see weights.ts) gets up to
 * that much, never more than remains.
 */
export function grantLease(handedOut: number, limit: number, need = 1): number {
  const remaining = Math.max(0, limit - handedOut);
  if (remaining === 0) return 0;
  return Math.min(remaining, Math.max(1, need, Math.min(Math.ceil(limit / 10), Math.ceil(remaining / 8))));
}

/** One gateway's share of a limit when the shared counters cannot be reached. */
export function localShare(limit: number, liveGateways: number): number {
  return Math.max(1, Math.floor(limit / Math.max(1, liveGateways)));
}

/** What one gateway holds of one (limit, key) in the current window. */
export class LocalWindow {
  window: number;
  leased = 0;
  used = 0;
  /** The shared counter reached the limit: refuse until the window ends, at no further cost. */
  exhausted = false;

  constructor(window: number) {
    this.window = window;
  }

  /** Admits `units` from the lease if it holds them; false means "lease more, or refuse if exhausted". */
  admit(units = 1): boolean {
    if (this.used + units > this.leased) return false;
    this.used += units;
    return true;
  }

  /** What the lease still holds. */
  get left(): number {
    return this.leased - this.used;
  }

  addLease(granted: number): void {
    if (granted <= 0) this.exhausted = true;
    else this.leased += granted;
  }
}
