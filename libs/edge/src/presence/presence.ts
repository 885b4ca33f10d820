/**
 * Channel presence across gateways: this gateway's part, the sockets it holds and the fan-out of
 * what changed. A user is online in a channel while they hold at least one live subscription of
 * it (a channel socket or a `/v1/connect` subscription) on any gateway, in a namespace whose
 * `presence` is on.
 *
 * The model is @rtm/presence's: one record per (environment, channel, gateway, shard) in a NATS KV
 * bucket of max age PRESENCE_TTL_MS (record-codec.ts), written per shard and paced
 * (record-shard.ts), read through one watcher's index of every gateway's records
 * (presence-store.ts). Here: counting each socket in and out of its shard, timing the writes,
 * rewriting this gateway's records every third of the TTL (a gateway that dies stops, and its
 * records age out, so presence expires instead of leaking; a record emptied by its last departure
 * is written empty and ages out the same way), and announcing.
 *
 * Changes (only where the namespace's `joinLeave` is on): each write's arrivals and departures are
 * decided once the index has caught up with it (decide.ts). Frames, coalesced (coalesce.ts): each
 * gateway gathers its decisions per channel for PRESENCE_WINDOW_MS and publishes each user's
 * latest decision of the window in ONE message `{op:'presence', changes:[{userId, online, at}]}`
 * on subjects.channel(env, channel); each gateway's channel feed gathers those again per window
 * and sends its sockets one `{op:'presence', joined, left}` frame.
 *
 * Presence entries (`presence-enter`/`-update`/`-leave` on /v1/connect): a subscription counted
 * here may enter with data; the entry rides in the user's shard (record-shard.ts, at most
 * PRESENCE_DATA_MAX bytes per user) with the same write pacing, and is announced with the write's
 * decisions (decide.ts) in the same messages and frames (`entered`, `updated`, `exited`). It leaves
 * with `presence-leave` or when its subscription ends.
 *
 * Webhook events (`channel.occupied`/`.vacated`/`.occupancy`, `presence.entered`/`.left`), where
 * an endpoint names them: decided from the same index as each change is delivered, once per
 * cluster, and recorded per window (presence-hooks.ts).
 */
import { encodeJson, publishLog, type NatsConnection, type Subjects } from '@rtm/bus';
import { newId } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { Logger } from '@rtm/ops';
import {
  PRESENCE_WINDOW_MS,
  PresenceStore,
  PresenceWindow,
  RecordShard,
  recordChannel,
  recordKey,
  type Decision,
  type EntryNote,
  type ShardWrite,
} from '@rtm/presence';
import type { Gauge } from 'prom-client';
import type { Usage } from '@rtm/usage';
import type { ChannelSocketHandle } from '../socket-events.ts';
import { PresenceHooks, type PresenceHooksDeps } from './presence-hooks.ts';

/** One channel's decisions waiting to be published, with the one timer that publishes them. */
interface Outgoing {
  environmentId: string;
  channelId: string;
  window: PresenceWindow;
  timer: NodeJS.Timeout | undefined;
}

/** What presence uses of the gateway. */
export interface PresenceDeps {
  nc: NatsConnection;
  subjects: Subjects;
  config: { NATS_PREFIX: string; PRESENCE_TTL_MS: number; PRESENCE_OCCUPANCY_WEBHOOK_MS: number };
  log: Logger;
  /** Where webhook events are recorded and namespaces read (presence-hooks.ts); without it, none are. */
  hooks?: Pick<PresenceHooksDeps, 'pool' | 'namespaces' | 'usage'>;
  /** Counts the presence changes this gateway publishes (docs/stats.md). */
  usage?: Usage;
  /** Set to the (channel, user) pairs this gateway holds. */
  entries: Gauge;
  /** Whether the channel's subscribers get presence frames: its namespace's `joinLeave` (cached). */
  joinLeave(environmentId: string, channelId: string): Promise<boolean>;
}

export class Presence {
  private readonly deps: PresenceDeps;
  /** This process's identity in record keys: a restart is a new holder. */
  readonly instanceId = newId('gw');
  /** This gateway's shards with users (or a write still to make), by record key. */
  private readonly shards = new Map<string, RecordShard>();
  /** Handles counted in, so a close without an open (or a second close) changes nothing. */
  private readonly joined = new WeakSet<ChannelSocketHandle>();
  /** (channel, user) pairs held here. */
  private pairs = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The bucket, its watcher and index. */
  private readonly store: PresenceStore;
  /** Writes and decisions under way (stop waits for them). */
  private readonly busy = new Set<Promise<void>>();
  /** Per channel: the changes decided in the current window, published together when it closes. */
  private readonly outgoing = new Map<string, Outgoing>();
  private failedWrites = 0;
  /** Webhook events of presence, when the gateway records them. */
  private readonly hooks: PresenceHooks | undefined;
  /** The revision of this gateway's latest record write (a drain waits for its index to show it). */
  private lastRevision = 0;

  constructor(deps: PresenceDeps) {
    this.deps = deps;
    const { NATS_PREFIX, PRESENCE_TTL_MS } = deps.config;
    this.hooks =
      deps.hooks &&
      new PresenceHooks({
        ...deps.hooks,
        log: deps.log,
        self: this.instanceId,
        ttlMs: PRESENCE_TTL_MS,
        occupancyMs: deps.config.PRESENCE_OCCUPANCY_WEBHOOK_MS,
      });
    this.store = new PresenceStore({
      nc: deps.nc,
      name: `${NATS_PREFIX}_presence_records`,
      ttlMs: PRESENCE_TTL_MS,
      log: deps.log,
      ...(this.hooks && { hooks: this.hooks.tracker }),
    });
  }

  /** Starts the refresh rounds that keep this gateway's records from expiring, and the watcher. */
  start(): void {
    this.heartbeat ??= setInterval(() => this.refresh(), Math.max(250, Math.floor(this.deps.config.PRESENCE_TTL_MS / 3)));
    this.heartbeat.unref();
    void this.store.open().catch(() => {});
    this.hooks?.start(this.store);
  }

  /** A live subscription: counted unless its namespace does not track presence. */
  join(handle: ChannelSocketHandle): void {
    if (handle.presence === false || this.joined.has(handle) || this.store.stopped) return;
    this.joined.add(handle);
    const shard = this.shardFor(handle.environmentId, handle.channelId, handle.userId);
    if (!shard.add(handle.userId)) return;
    this.pairs++;
    this.deps.entries.set(this.pairs);
    this.schedule(shard);
  }

  leave(handle: ChannelSocketHandle): void {
    if (!this.joined.delete(handle)) return;
    const shard = this.shards.get(recordKey(handle.environmentId, handle.channelId, this.instanceId, handle.userId));
    if (!shard) return;
    // its entry goes with it (the user's entry here falls back to another entered subscription's)
    const exited = shard.exit(handle.userId, handle);
    if (shard.remove(handle.userId)) {
      this.pairs--;
      this.deps.entries.set(this.pairs);
    } else if (!exited) return;
    this.schedule(shard);
  }

  /**
   * A subscription enters presence with `data` serialized (or updates its entry: `update`). It must
   * be counted here (live, in a namespace tracking presence); an update needs an entry to update.
   */
  enter(handle: ChannelSocketHandle, data: string, update: boolean): void {
    const shard = this.joined.has(handle) ? this.shards.get(recordKey(handle.environmentId, handle.channelId, this.instanceId, handle.userId)) : undefined;
    if (!shard) throw new ServiceError('invalid_request', 'subscribe to the channel (and wait for `subscribed`) before entering its presence');
    if (update && !shard.entered(handle.userId, handle)) {
      throw new ServiceError('invalid_request', 'not entered: send `presence-enter` before `presence-update` on this channel');
    }
    if (!shard.enter(handle.userId, handle, data)) {
      throw new ServiceError('payload_too_large', "this channel's presence data is full on this gateway: enter with less data, or without");
    }
    this.schedule(shard);
  }

  /** A subscription leaves presence (its entry goes); false when it had not entered. */
  exit(handle: ChannelSocketHandle): boolean {
    const shard = this.shards.get(recordKey(handle.environmentId, handle.channelId, this.instanceId, handle.userId));
    if (!shard?.exit(handle.userId, handle)) return false;
    this.schedule(shard);
    return true;
  }

  /** The users online in a channel on any gateway, and the entries of those who entered (data serialized). */
  present(environmentId: string, channelId: string): Promise<{ online: Set<string>; entries: Map<string, string> }> {
    return this.store.present(recordChannel(environmentId, channelId));
  }

  /** The users online in a channel on any gateway. */
  online(environmentId: string, channelId: string): Promise<Set<string>> {
    return this.store.online(recordChannel(environmentId, channelId));
  }

  /** Subscriptions and distinct users of a channel over every gateway (as the bucket held them a moment ago). */
  occupancy(environmentId: string, channelId: string): Promise<{ connections: number; users: number }> {
    return this.store.occupancy(recordChannel(environmentId, channelId));
  }

  /** The same, from the index alone, when it is live (occupancy frames: no bucket reads on a timer). */
  occupancyNow(environmentId: string, channelId: string): { connections: number; users: number } | undefined {
    return this.store.occupancyNow(recordChannel(environmentId, channelId));
  }

  /**
   * Graceful drain: this gateway lets go of everything it holds now (its records written empty,
   * `online:false` where nobody else holds the user) instead of waiting for its sockets' close
   * events or the TTL. Waits for that, at most `limitMs`.
   */
  async stop(limitMs = 3_000): Promise<void> {
    clearInterval(this.heartbeat);
    for (const shard of this.shards.values()) {
      shard.clear();
      this.schedule(shard);
    }
    this.pairs = 0;
    this.deps.entries.set(0);
    let timer: NodeJS.Timeout | undefined;
    const settled = async () => {
      while (this.busy.size > 0 || [...this.shards.values()].some((shard) => shard.timer)) {
        await Promise.allSettled([...this.busy, new Promise((resolve) => setTimeout(resolve, 10))]);
      }
    };
    await Promise.race([settled(), new Promise((resolve) => (timer = setTimeout(resolve, limitMs)))]);
    clearTimeout(timer);
    if (this.hooks) {
      // the channels this drain vacated are its own writes' transitions: weighed once the index shows them, recorded now
      if (this.lastRevision > 0) await this.store.caughtUp(this.lastRevision, Math.min(limitMs, 2_000));
      await this.hooks.stop().catch((error: unknown) => this.deps.log.warn({ err: error }, 'presence webhooks: recording at drain failed'));
    }
    this.store.stop();
    for (const shard of this.shards.values()) clearTimeout(shard.timer);
    // the offline changes just decided go out now, not a window later
    for (const key of [...this.outgoing.keys()]) this.flush(key);
  }

  private shardFor(environmentId: string, channelId: string, userId: string): RecordShard {
    const key = recordKey(environmentId, channelId, this.instanceId, userId);
    let shard = this.shards.get(key);
    if (!shard) {
      shard = new RecordShard(key, recordChannel(environmentId, channelId), environmentId, channelId);
      this.shards.set(key, shard);
    }
    return shard;
  }

  /** Marks the shard for writing; the write starts once the previous one is done and spaced. */
  private schedule(shard: RecordShard): void {
    shard.dirty = true;
    if (shard.writing || shard.timer) return;
    shard.timer = setTimeout(() => {
      shard.timer = undefined;
      this.track(this.write(shard));
    }, shard.wait());
    shard.timer.unref();
  }

  private track(work: Promise<void>): void {
    this.busy.add(work);
    void work.finally(() => this.busy.delete(work));
  }

  /** Writes the shard's users as they are now, then decides what the write changed. */
  private async write(shard: RecordShard): Promise<void> {
    const write = shard.begin();
    let ok = false;
    try {
      const revision = await this.store.put(shard.key, write.value);
      if (revision > this.lastRevision) this.lastRevision = revision;
      ok = true;
      this.failedWrites = 0;
      shard.succeeded(write);
      if (write.arrived.length > 0 || write.departed.length > 0 || write.entries.length > 0) this.track(this.decide(shard, write, revision));
    } catch (error) {
      shard.failed(write);
      // one line per failing streak, not one per write: a NATS outage must not flood the log
      if (this.failedWrites++ === 0) this.deps.log.warn({ err: error }, 'presence write failed; retrying');
    }
    if (shard.dirty && !this.store.stopped) this.schedule(shard);
    else if (ok && !shard.dirty && shard.users.size === 0 && this.shards.get(shard.key) === shard) this.shards.delete(shard.key);
  }

  /** A write's arrivals and departures, announced where the channel sends presence frames. */
  private async decide(shard: RecordShard, write: ShardWrite, revision: number): Promise<void> {
    try {
      if (!(await this.deps.joinLeave(shard.environmentId, shard.channelId))) return;
      const { arrived, departed, entries } = write;
      const decided = await this.store.decide(shard.channel, this.instanceId, { arrived, departed, entries, revision });
      for (const decision of decided) this.announce(shard, decision, revision);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'presence decision failed');
    }
  }

  /** Records a decided change in its channel's window; the window's timer publishes it. */
  private announce(shard: RecordShard, decision: Decision, revision: number): void {
    const { userId, online } = decision;
    const { environmentId, channelId, channel } = shard;
    let out = this.outgoing.get(channel);
    if (!out) {
      out = { environmentId, channelId, window: new PresenceWindow(), timer: undefined };
      this.outgoing.set(channel, out);
    }
    const news = decision.entry;
    // the data goes over the bus as JSON, parsed once here (it was serialized by this gateway)
    const entry: EntryNote | undefined = news && (news.action === 'leave' ? news : { action: news.action, data: JSON.parse(news.data) as unknown });
    out.window.add({ userId, online, at: revision, ...(decision.entryOnly ? { entryOnly: true as const } : {}), ...(entry ? { entry } : {}) });
    if (!out.timer) {
      out.timer = setTimeout(() => this.flush(channel), PRESENCE_WINDOW_MS);
      out.timer.unref();
    }
  }

  /** Publishes one channel's window as one message: each user's latest decision in it. */
  private flush(channel: string): void {
    const out = this.outgoing.get(channel);
    if (!out) return;
    clearTimeout(out.timer);
    this.outgoing.delete(channel);
    const batch = out.window.drain(Date.now());
    if (!batch) return;
    const { environmentId, channelId } = out;
    this.deps.nc.publish(this.deps.subjects.channel(environmentId, channelId), encodeJson({ op: 'presence', changes: batch.changes }));
    // each user's change once, by the gateway that decided it (one per cluster)
    this.deps.usage?.add(environmentId, 'presence_events', batch.changes.length);
    for (const { userId, online, entryOnly } of batch.changes) {
      // the log tells comings and goings; an entry's data is the application's, not the log's
      if (entryOnly) continue;
      publishLog(this.deps.nc, this.deps.subjects, environmentId, 'debug', online ? 'presence.joined' : 'presence.left', { channelId, userId });
    }
  }

  /** Every third of the TTL: each record with users is written again (unchanged), so it does not age out. */
  private refresh(): void {
    this.store.sweep();
    for (const shard of this.shards.values()) if (shard.users.size > 0) this.schedule(shard);
  }
}
