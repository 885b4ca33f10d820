/**
 * `occupancy` frames for the subscriptions that asked for them (`subscribe` with
 * `occupancy: true`): one timer for the whole gateway reads each watched channel's counts from the
 * presence index once a second and sends them to the channel's watchers when they changed; a
 * watcher that just arrived gets them at the next tick whatever they are. The counts cost no bus
 * or Postgres read: every gateway's presence records are in the index already.
 */
import { ServiceError } from '@rtm/errors';

/** Occupancy asked of a channel whose namespace does not track presence. */
export const presenceOff = () => new ServiceError('forbidden', "presence is off in this channel's namespace (`presence: false`): it has no occupancy");

export interface Counts {
  connections: number;
  users: number;
}

/** A subscription receiving the frames (the multiplexed socket's subscription handle). */
export interface OccupancyWatcher {
  environmentId: string;
  channelId: string;
  send(frame: object): void;
}

interface Watched {
  environmentId: string;
  channelId: string;
  watchers: Set<OccupancyWatcher>;
  /** Watchers that have had no frame yet. */
  fresh: Set<OccupancyWatcher>;
  last: Counts | undefined;
}

export const OCCUPANCY_PERIOD_MS = 1_000;

export class OccupancyFrames {
  private readonly channels = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  /** The counts now, or undefined while they cannot be read locally (the frame waits for a later tick). */
  private readonly read: (environmentId: string, channelId: string) => Counts | undefined;
  private readonly periodMs: number;

  constructor(read: (environmentId: string, channelId: string) => Counts | undefined, periodMs = OCCUPANCY_PERIOD_MS) {
    this.read = read;
    this.periodMs = periodMs;
  }

  watch(watcher: OccupancyWatcher): void {
    const key = `${watcher.environmentId}\u0000${watcher.channelId}`;
    let watched = this.channels.get(key);
    if (!watched) {
      watched = { environmentId: watcher.environmentId, channelId: watcher.channelId, watchers: new Set(), fresh: new Set(), last: undefined };
      this.channels.set(key, watched);
    }
    watched.watchers.add(watcher);
    watched.fresh.add(watcher);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.periodMs);
      this.timer.unref();
    }
  }

  unwatch(watcher: OccupancyWatcher): void {
    const key = `${watcher.environmentId}\u0000${watcher.channelId}`;
    const watched = this.channels.get(key);
    if (!watched?.watchers.delete(watcher)) return;
    watched.fresh.delete(watcher);
    if (watched.watchers.size > 0) return;
    this.channels.delete(key);
    if (this.channels.size === 0) this.stop();
  }

  /** Channels watched on this gateway. */
  get size(): number {
    return this.channels.size;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round: each watched channel's counts to its watchers, if they changed (to fresh watchers anyway). */
  tick(): void {
    for (const watched of this.channels.values()) {
      const counts = this.read(watched.environmentId, watched.channelId);
      if (!counts) continue;
      const changed = !watched.last || watched.last.connections !== counts.connections || watched.last.users !== counts.users;
      const to = changed ? watched.watchers : watched.fresh;
      if (to.size > 0) {
        const frame = { op: 'occupancy', connections: counts.connections, users: counts.users };
        for (const watcher of to) watcher.send(frame);
      }
      watched.last = counts;
      watched.fresh.clear();
    }
  }
}
