/**
 * A process's usage meter: what it counted per environment and minute, not yet written. Counting
 * is a map lookup and an addition (no allocation once the environment's minute has its slot); the
 * flusher (flusher.ts) takes the deltas every USAGE_FLUSH_MS and writes them in one statement.
 *
 * Three columns are not plain sums of events (migration 000022's comment, docs/stats.md):
 * - `connections_peak`: the most connections this process held at once in the minute; each take
 *   hands over the rise since the minute's last take, so the minute's row sums the processes' peaks;
 * - `channels_active`: the distinct channels counted in the minute; each take hands over those new
 *   since the minute's last take;
 * - `connection_seconds`: the connections' time in the minute, accrued whenever the count changes
 *   and at every tick (split at minute boundaries); whole seconds are handed over as they add up.
 */
import { SUMMED_INDEX, USAGE_COLUMNS, type UsageCounter } from './columns.ts';

const MINUTE_MS = 60_000;
const PEAK = USAGE_COLUMNS.indexOf('connections_peak');
const CHANNELS = USAGE_COLUMNS.indexOf('channels_active');
const SECONDS = USAGE_COLUMNS.indexOf('connection_seconds');
const DELIVERED = USAGE_COLUMNS.indexOf('messages_delivered');
const BYTES = USAGE_COLUMNS.indexOf('bytes_delivered');

/** One environment's minute as a take hands it over: `values` in USAGE_COLUMNS order, deltas to add. */
export interface UsageRow {
  environmentId: string;
  /** The minute's start, epoch milliseconds. */
  at: number;
  values: number[];
}

/** What the processes count with; UsageMeter counts, NO_USAGE (USAGE_COUNTING=off) does nothing. */
export interface Usage {
  /** Adds `n` to a summed counter of the environment's current minute. */
  add(environmentId: string, counter: UsageCounter, n?: number): void;
  /** One message frame of `bytes` handed to a subscriber: `messages_delivered` and `bytes_delivered` in one lookup. */
  delivered(environmentId: string, bytes: number): void;
  /** A channel was active (a message or change of it committed) in the current minute. */
  channel(environmentId: string, channelId: string): void;
  /** A connection of the environment opened / closed (its peak and its seconds). */
  opened(environmentId: string): void;
  closed(environmentId: string): void;
}

class Slot {
  readonly environmentId: string;
  readonly minute: number;
  /** Summed counters not yet taken, by USAGE_COLUMNS index (the three special ones stay 0). */
  readonly sums = new Float64Array(USAGE_COLUMNS.length);
  peak = 0;
  takenPeak = 0;
  channels: Set<string> | undefined;
  takenChannels = 0;
  connectionMs = 0;
  takenSeconds = 0;
  /** Something was added since the last take (a cheap test in take()). */
  dirty = false;

  constructor(environmentId: string, minute: number, peak: number) {
    this.environmentId = environmentId;
    this.minute = minute;
    this.peak = peak;
    this.dirty = peak > 0;
  }
}

interface Live {
  count: number;
  /** Up to when its connection time has been accrued. */
  since: number;
}

export class UsageMeter implements Usage {
  readonly #now: () => number;
  /** Each environment's latest minute: the one counting goes to. */
  readonly #current = new Map<string, Slot>();
  /** Earlier minutes with something not yet taken. */
  #older: Slot[] = [];
  readonly #live = new Map<string, Live>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  add(environmentId: string, counter: UsageCounter, n = 1): void {
    if (n === 0) return;
    const slot = this.#slot(environmentId, Math.floor(this.#now() / MINUTE_MS));
    slot.sums[SUMMED_INDEX[counter]]! += n;
    slot.dirty = true;
  }

  delivered(environmentId: string, bytes: number): void {
    const slot = this.#slot(environmentId, Math.floor(this.#now() / MINUTE_MS));
    slot.sums[DELIVERED]! += 1;
    slot.sums[BYTES]! += bytes;
    slot.dirty = true;
  }

  channel(environmentId: string, channelId: string): void {
    const slot = this.#slot(environmentId, Math.floor(this.#now() / MINUTE_MS));
    const channels = (slot.channels ??= new Set());
    if (channels.has(channelId)) return;
    channels.add(channelId);
    slot.dirty = true;
  }

  opened(environmentId: string): void {
    const now = this.#now();
    let live = this.#live.get(environmentId);
    if (live) this.#accrue(environmentId, live, now);
    else this.#live.set(environmentId, (live = { count: 0, since: now }));
    live.count += 1;
    const slot = this.#slot(environmentId, Math.floor(now / MINUTE_MS));
    if (live.count > slot.peak) {
      slot.peak = live.count;
      slot.dirty = true;
    }
  }

  closed(environmentId: string): void {
    const live = this.#live.get(environmentId);
    if (!live) return;
    this.#accrue(environmentId, live, this.#now());
    live.count -= 1;
    if (live.count <= 0) this.#live.delete(environmentId);
  }

  /** Connections open now, per environment (for tests and the shutdown's last take). */
  connections(environmentId: string): number {
    return this.#live.get(environmentId)?.count ?? 0;
  }

  /**
   * Carries open connections into the present: their time so far, and the current minute's peak
   * (a minute in which nothing opened starts at the connections still open). Run at every tick,
   * whether or not a write is under way, so no minute is missed while one takes long.
   */
  touch(): void {
    const now = this.#now();
    for (const [environmentId, live] of this.#live) this.#accrue(environmentId, live, now);
  }

  /**
   * Hands over every delta since the last take and marks it taken (the flusher keeps the rows
   * until they are written). Minutes that are over and fully taken are forgotten.
   */
  take(): UsageRow[] {
    this.touch();
    const rows: UsageRow[] = [];
    const minute = Math.floor(this.#now() / MINUTE_MS);
    for (const slot of this.#older) takeSlot(slot, rows);
    this.#older = [];
    for (const [environmentId, slot] of this.#current) {
      takeSlot(slot, rows);
      // a minute over: nothing more can be counted in it (connection time is accrued up to now)
      if (slot.minute < minute) this.#current.delete(environmentId);
    }
    return rows;
  }

  /** The environment's slot for `minute`: the current one, a new one, or (accrual only) an earlier one. */
  #slot(environmentId: string, minute: number): Slot {
    const current = this.#current.get(environmentId);
    if (current !== undefined && current.minute === minute) return current;
    if (current !== undefined && current.minute > minute) {
      // connection time accrued into a minute already left behind (a tick late across a boundary)
      const older = this.#older.find((s) => s.environmentId === environmentId && s.minute === minute);
      if (older) return older;
      const slot = new Slot(environmentId, minute, 0);
      this.#older.push(slot);
      return slot;
    }
    if (current !== undefined) this.#older.push(current);
    const slot = new Slot(environmentId, minute, this.#live.get(environmentId)?.count ?? 0);
    this.#current.set(environmentId, slot);
    return slot;
  }

  /** Adds the connections' time since `live.since` to the minutes it spans. */
  #accrue(environmentId: string, live: Live, now: number): void {
    while (live.since < now) {
      const minute = Math.floor(live.since / MINUTE_MS);
      const to = Math.min(now, (minute + 1) * MINUTE_MS);
      const slot = this.#slot(environmentId, minute);
      if (live.count > 0) {
        slot.connectionMs += live.count * (to - live.since);
        slot.dirty = true;
      }
      if (live.count > slot.peak) {
        slot.peak = live.count;
        slot.dirty = true;
      }
      live.since = to;
    }
    // the current minute exists with its peak even when no time passed in it yet
    if (live.count > 0) this.#slot(environmentId, Math.floor(now / MINUTE_MS));
  }
}

/** Appends the slot's deltas to `rows` (when there are any) and marks them taken. */
function takeSlot(slot: Slot, rows: UsageRow[]): void {
  if (!slot.dirty) return;
  slot.dirty = false;
  const values = Array.from(slot.sums);
  slot.sums.fill(0);
  values[PEAK] = slot.peak - slot.takenPeak;
  slot.takenPeak = slot.peak;
  const channels = slot.channels?.size ?? 0;
  values[CHANNELS] = channels - slot.takenChannels;
  slot.takenChannels = channels;
  const seconds = Math.floor(slot.connectionMs / 1000);
  values[SECONDS] = seconds - slot.takenSeconds;
  slot.takenSeconds = seconds;
  if (values.some((v) => v !== 0)) rows.push({ environmentId: slot.environmentId, at: slot.minute * MINUTE_MS, values });
}

/** USAGE_COUNTING=off: counts nothing. */
export const NO_USAGE: Usage = {
  add() {},
  delivered() {},
  channel() {},
  opened() {},
  closed() {},
};
