/**
 * Presence coalescing: the joins and leaves of one channel gathered over a window and given out
 * as one change set (pure logic; the gateway's presence and its channel feeds run the timers).
 *
 * - Each change carries `at`, the presence bucket's revision of the write (arrival) or purge
 *   (departure) its gateway decided it on. Revisions are one order for every gateway, and each
 *   decision was made seeing every key change up to its revision, so for one user the decision of
 *   the highest revision wins, whatever order the bus delivered the changes in and however far
 *   apart the gateways' clocks or watchers are: two gateways' windows flushing out of order
 *   cannot leave a user shown offline while online, nor online once every socket is gone.
 * - A window gives out, per user, the latest decision of the window, even when it restates the
 *   state given out before: every decision is a change a roster reader could have seen (an arrival
 *   wrote the user's first key, a departure purged the last one), and a client that read the
 *   roster between a leave and a return, in one window or hidden by a gateway's own window, only
 *   learns of the return from this frame. So churn costs at most one entry per user per window,
 *   never nothing.
 * - The state given out is remembered for `rememberMs` only to drop a late change older (`at`)
 *   than it, so two gateways' messages arriving out of order cannot undo a newer decision.
 * - A change may carry the user's presence entry (`entry`: entered, updated, left) and may be about
 *   the entry alone (`entryOnly`: the user stays online). Within a window the latest wins, except
 *   that an arrival or an enter is not lost to a later entry change: an enter then an update is
 *   given out as an enter with the newer data, an arrival then an update as both, and an entry
 *   change after a departure as a return (it proves the user is held again).
 */

/** How long presence changes are gathered before they go out, on each gateway and each feed. */
export const PRESENCE_WINDOW_MS = 250;

/** A presence entry as announced: entered or changed with `data` (any JSON), or left. */
export type EntryNote = { action: 'enter' | 'update'; data: unknown } | { action: 'leave' };

/** One user's presence change as gateways tell each other on the channel subject. */
export interface PresenceChange {
  userId: string;
  online: boolean;
  /** The presence bucket revision the deciding gateway decided it on (see above). */
  at: number;
  /** Only the entry changed: the user was online and stays so. */
  entryOnly?: true;
  entry?: EntryNote;
}

/** A user's entry as a frame gives it out. */
export interface EntryData {
  userId: string;
  data: unknown;
}

/** What one window gives out: the joins and leaves, the entries (each list only when not empty), and the changes behind them. */
export interface PresenceBatch {
  joined: string[];
  left: string[];
  entered?: EntryData[];
  updated?: EntryData[];
  exited?: string[];
  changes: PresenceChange[];
}

interface Pending {
  /** The latest decision of the window (by `at`), merged as said above. */
  online: boolean;
  at: number;
  entryOnly: boolean;
  entry: EntryNote | undefined;
}

/** `later` applied over `earlier` (one user's, `later.at` ≥ `earlier.at`). */
function merge(earlier: Pending, later: PresenceChange): Pending {
  const entryOnly = later.entryOnly === true && earlier.entryOnly;
  const online = later.entryOnly === true ? true : later.online;
  let entry: EntryNote | undefined;
  if (later.entry) {
    entry = earlier.entry?.action === 'enter' && later.entry.action === 'update' ? { action: 'enter', data: later.entry.data } : later.entry;
  } else if (!online && earlier.entry && earlier.entry.action !== 'leave') {
    entry = { action: 'leave' };
  } else entry = earlier.entry;
  return { online, at: later.at, entryOnly, entry };
}

/** The frame a window's batch becomes: `joined` and `left` always, the entry lists when not empty. */
export function presenceFrame(batch: PresenceBatch): Record<string, unknown> {
  const frame: Record<string, unknown> = { op: 'presence', joined: batch.joined, left: batch.left };
  if (batch.entered) frame.entered = batch.entered;
  if (batch.updated) frame.updated = batch.updated;
  if (batch.exited) frame.exited = batch.exited;
  return frame;
}

interface Settled {
  /** The `at` of the decision given out last. */
  at: number;
  settledAt: number;
}

export class PresenceWindow {
  private readonly pending = new Map<string, Pending>();
  /** Users given out recently, oldest first (re-inserted when given out again). */
  private readonly settled = new Map<string, Settled>();
  private readonly rememberMs: number;
  /** The highest `at` added so far: a change of the previous release's form is taken as this recent. */
  latestAt = 0;

  constructor(options: { rememberMs?: number } = {}) {
    this.rememberMs = options.rememberMs ?? 0;
  }

  /** Changes waiting for the window to close. */
  get pendingSize(): number {
    return this.pending.size;
  }

  /** Users whose last state is still remembered. */
  get rememberedSize(): number {
    return this.settled.size;
  }

  /** Adds a change; a change older than what is already known for the user is dropped (false). */
  add(change: PresenceChange): boolean {
    if (change.at > this.latestAt) this.latestAt = change.at;
    const waiting = this.pending.get(change.userId);
    if (waiting) {
      if (change.at < waiting.at) return false;
      this.pending.set(change.userId, merge(waiting, change));
      return true;
    }
    const known = this.settled.get(change.userId);
    if (known && change.at < known.at) return false;
    const { online, at, entry } = change;
    this.pending.set(change.userId, { online, at, entryOnly: change.entryOnly === true, entry });
    return true;
  }

  /** Closes the window: each user's latest decision in it, or undefined when it had none. */
  drain(now: number): PresenceBatch | undefined {
    const batch: PresenceBatch = { joined: [], left: [], changes: [] };
    for (const [userId, entry] of this.pending) {
      if (!entry.online) batch.left.push(userId);
      else if (!entry.entryOnly) batch.joined.push(userId);
      const news = entry.entry;
      if (news?.action === 'enter') (batch.entered ??= []).push({ userId, data: news.data });
      else if (news?.action === 'update') (batch.updated ??= []).push({ userId, data: news.data });
      else if (news?.action === 'leave') (batch.exited ??= []).push(userId);
      const change: PresenceChange = { userId, online: entry.online, at: entry.at };
      if (entry.entryOnly) change.entryOnly = true;
      if (news) change.entry = news;
      batch.changes.push(change);
      if (this.rememberMs > 0) {
        this.settled.delete(userId);
        this.settled.set(userId, { at: entry.at, settledAt: now });
      }
    }
    this.pending.clear();
    this.forget(now);
    return batch.changes.length > 0 ? batch : undefined;
  }

  /** Drops remembered states older than `rememberMs`. */
  forget(now: number): void {
    for (const [userId, entry] of this.settled) {
      if (entry.settledAt > now - this.rememberMs) break;
      this.settled.delete(userId);
    }
  }
}

/** A change's entry as it came over the bus, or undefined when it has none (or a malformed one). */
function entryOf(value: unknown): EntryNote | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { action } = value as Record<string, unknown>;
  if (action === 'leave') return { action };
  if ((action === 'enter' || action === 'update') && 'data' in value) return { action, data: (value as { data: unknown }).data };
  return undefined;
}

/**
 * The changes of a presence message on the channel subject: `{op:"presence", changes:[{userId,
 * online, at, entryOnly?, entry?}]}`, or the single-change form `{op:"presence", userId, online}` that gateways of the
 * previous release publish (taken as decided at `legacyAt`: the newest `at` seen, so it counts as
 * recent and the next change of the new form overrides it). Malformed entries are skipped.
 */
export function changesOf(frame: Record<string, unknown>, legacyAt: number): PresenceChange[] {
  if (Array.isArray(frame.changes)) {
    const out: PresenceChange[] = [];
    for (const entry of frame.changes as unknown[]) {
      if (entry === null || typeof entry !== 'object') continue;
      const { userId, online, at, entryOnly, entry: note } = entry as Record<string, unknown>;
      if (typeof userId === 'string' && typeof online === 'boolean' && typeof at === 'number' && Number.isFinite(at)) {
        const change: PresenceChange = { userId, online, at };
        const news = entryOf(note);
        // an entry-only change without its entry is nothing to give out
        if (entryOnly === true && !news) continue;
        if (entryOnly === true) change.entryOnly = true;
        if (news) change.entry = news;
        out.push(change);
      }
    }
    return out;
  }
  if (typeof frame.userId === 'string' && typeof frame.online === 'boolean') return [{ userId: frame.userId, online: frame.online, at: legacyAt }];
  return [];
}
