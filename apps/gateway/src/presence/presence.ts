/**
 * Channel presence across gateways. A user is online in a channel while they hold at least one
 * live subscription of it (a channel socket or a `/v1/connect` subscription) on any gateway, in a
 * namespace whose `presence` is on.
 *
 * Store: a NATS KV bucket `<NATS_PREFIX>_presence_records` (memory storage, one value per key, max age
 * PRESENCE_TTL_MS) of RECORDS, one per (environment, channel, gateway, shard):
 * `<env>.<channel>.<gateway instance>.<shard>` (the channel id base64url-encoded) holding
 * `{"<userId>": <sockets>, …}` for the users of that shard (RECORD_SHARDS, by a hash of the user
 * id) the gateway holds there. A user's arrival or departure only marks its shard: a busy shard is
 * written at most every RECORD_SPACING_MS (a quiet one at once), so a storm of arrivals costs a
 * few writes per shard, not one key and one listing per user. Each gateway rewrites its records every third of the TTL;
 * a gateway that dies stops, and its records age out, so presence expires instead of leaking. A
 * record emptied by its last departure is written empty and ages out the same way.
 *
 * One watcher of the whole bucket feeds a local index of every gateway's records
 * (record-index.ts): rosters, occupancy and the decisions below read it without listing the bucket.
 *
 * Changes (only where the namespace's `joinLeave` is on): a write that adds a user decides an
 * arrival, one that drops a user a departure, once the index has caught up with the write. The
 * user comes online unless another gateway has held them since an earlier revision (of two first
 * sockets racing on two gateways exactly one announces); goes offline unless another gateway
 * holds them. Whichever of two gateways writes last sees the other's write, and its decision is
 * the later (`at`, the write's revision).
 *
 * Frames, coalesced (coalesce.ts): each gateway gathers its decisions per channel for
 * PRESENCE_WINDOW_MS and publishes each user's latest decision of the window in ONE message
 * `{op:'presence', changes:[{userId, online, at}]}` on subjects.channel(env, channel); each
 * gateway's channel feed gathers those again per window and sends its sockets one
 * `{op:'presence', joined, left}` frame.
 */
import { encodeJson, encodeToken, publishLog, type NatsConnection, type Subjects } from '@rtm/bus';
import { newId } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { Logger } from '@rtm/ops';
import type { Gauge } from 'prom-client';
import type { KV } from 'nats';
import type { ChannelSocketHandle } from '../socket-events.ts';
import { PRESENCE_WINDOW_MS, PresenceWindow } from './coalesce.ts';
import { PresenceRecordIndex, decodeRecord, encodeRecord, splitRecordKey, type RecordUsers } from './record-index.ts';
import { KV_CONCURRENCY, KV_DEADLINE_MS, Slots, listKeys, openBucket, withDeadline } from './presence-kv.ts';

/** Records per (channel, gateway): a user's shard is a hash of their id (a write carries ~1/32 of a big channel). */
export const RECORD_SHARDS = 32;
/**
 * A busy shard is written at most once per this interval: arrivals and departures in between
 * share one write (and every gateway's watcher decodes it). A quarter of a second, like the
 * presence frame windows. A quiet shard writes at once, up to RECORD_BURST writes in a row (so a
 * user who comes and goes is shown gone at once, not a quarter of a second later).
 */
export const RECORD_SPACING_MS = 250;
export const RECORD_BURST = 2;
/**
 * How long a decision waits for the bucket's watcher to deliver its own write before it looks in
 * the bucket instead: a watcher that stalls without ending (its consumer being reset under load)
 * would otherwise hold every decision until KV_DEADLINE_MS.
 */
const INDEX_WAIT_MS = 2_000;
/** A write that failed is tried again after this long. */
const RETRY_MS = 1_000;

/** FNV-1a of the user id: the user's shard, the same on every gateway and every channel. */
export function shardOf(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) hash = Math.imul(hash ^ userId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % RECORD_SHARDS;
}

/** This gateway's part of one record: its users there now, and what the bucket holds of it. */
interface Shard {
  key: string;
  channel: string;
  environmentId: string;
  channelId: string;
  /** userId → this gateway's subscriptions of the channel. */
  users: RecordUsers;
  /** The users the bucket holds of this record (the last successful write). */
  written: Set<string>;
  /** Users who came or went since the last write was taken: its arrivals and departures are among them. */
  changed: Set<string>;
  dirty: boolean;
  writing: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Writes the shard may start without waiting (a token bucket: RECORD_BURST, one more every RECORD_SPACING_MS), as of `refilledAt`. */
  tokens: number;
  refilledAt: number;
  /** After a failure: no write before this (RETRY_MS later). */
  notBefore: number;
}

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
  config: { NATS_PREFIX: string; PRESENCE_TTL_MS: number };
  log: Logger;
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
  private readonly shards = new Map<string, Shard>();
  /** Handles counted in, so a close without an open (or a second close) changes nothing. */
  private readonly joined = new WeakSet<ChannelSocketHandle>();
  /** (channel, user) pairs held here. */
  private pairs = 0;
  private opened: Promise<KV> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly slots = new Slots(KV_CONCURRENCY);
  /** Writes and decisions under way (stop waits for them). */
  private readonly busy = new Set<Promise<void>>();
  /** Per channel: the changes decided in the current window, published together when it closes. */
  private readonly outgoing = new Map<string, Outgoing>();
  /** Every gateway's records, from one watcher of the bucket opened with it (record-index.ts); none until then. */
  private index: PresenceRecordIndex | undefined;
  private stopWatching: (() => void) | undefined;
  /** Undefined until the bucket opens; false once stopped (no watcher is reopened, nothing is written again). */
  private watching: boolean | undefined;
  private failedWrites = 0;

  constructor(deps: PresenceDeps) {
    this.deps = deps;
  }

  /** Starts the refresh rounds that keep this gateway's records from expiring, and the watcher. */
  start(): void {
    this.heartbeat ??= setInterval(() => this.refresh(), Math.max(250, Math.floor(this.deps.config.PRESENCE_TTL_MS / 3)));
    this.heartbeat.unref();
    void this.bucket().catch(() => {});
  }

  /** A live subscription: counted unless its namespace does not track presence. */
  join(handle: ChannelSocketHandle): void {
    if (handle.presence === false || this.joined.has(handle) || this.watching === false) return;
    this.joined.add(handle);
    const shard = this.shardFor(handle.environmentId, handle.channelId, handle.userId);
    const sockets = shard.users.get(handle.userId) ?? 0;
    shard.users.set(handle.userId, sockets + 1);
    if (sockets === 0) {
      this.pairs++;
      this.deps.entries.set(this.pairs);
      shard.changed.add(handle.userId);
      this.schedule(shard);
    }
  }

  leave(handle: ChannelSocketHandle): void {
    if (!this.joined.delete(handle)) return;
    const shard = this.shards.get(this.keyOf(handle.environmentId, handle.channelId, handle.userId));
    const sockets = shard?.users.get(handle.userId);
    if (!shard || sockets === undefined) return;
    if (sockets > 1) return void shard.users.set(handle.userId, sockets - 1);
    shard.users.delete(handle.userId);
    shard.changed.add(handle.userId);
    this.pairs--;
    this.deps.entries.set(this.pairs);
    this.schedule(shard);
  }

  /** The users online in a channel on any gateway. */
  async online(environmentId: string, channelId: string): Promise<Set<string>> {
    const channel = channelOf(environmentId, channelId);
    const index = await this.liveIndex();
    if (index) return index.online(channel);
    const users = new Set<string>();
    for (const record of await this.records(channel)) for (const userId of record.users.keys()) users.add(userId);
    return users;
  }

  /** Subscriptions and distinct users of a channel over every gateway (as the bucket held them a moment ago). */
  async occupancy(environmentId: string, channelId: string): Promise<{ connections: number; users: number }> {
    const channel = channelOf(environmentId, channelId);
    const index = await this.liveIndex();
    if (index) return index.occupancy(channel);
    const users = new Set<string>();
    let connections = 0;
    for (const record of await this.records(channel)) {
      for (const [userId, sockets] of record.users) {
        users.add(userId);
        connections += sockets;
      }
    }
    return { connections, users: users.size };
  }

  /** The same, from the index alone, when it is live (occupancy frames: no bucket reads on a timer). */
  occupancyNow(environmentId: string, channelId: string): { connections: number; users: number } | undefined {
    return this.index?.live ? this.index.occupancy(channelOf(environmentId, channelId)) : undefined;
  }

  /**
   * Graceful drain: this gateway lets go of everything it holds now (its records written empty,
   * `online:false` where nobody else holds the user) instead of waiting for its sockets' close
   * events or the TTL. Waits for that, at most `limitMs`.
   */
  async stop(limitMs = 3_000): Promise<void> {
    clearInterval(this.heartbeat);
    for (const shard of this.shards.values()) {
      for (const userId of shard.users.keys()) shard.changed.add(userId);
      shard.users.clear();
      shard.notBefore = 0;
      shard.tokens = RECORD_BURST;
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
    this.watching = false;
    this.stopWatching?.();
    for (const shard of this.shards.values()) clearTimeout(shard.timer);
    // the offline changes just decided go out now, not a window later
    for (const key of [...this.outgoing.keys()]) this.flush(key);
  }

  private keyOf(environmentId: string, channelId: string, userId: string): string {
    return `${channelOf(environmentId, channelId)}.${this.instanceId}.${shardOf(userId)}`;
  }

  private shardFor(environmentId: string, channelId: string, userId: string): Shard {
    const key = this.keyOf(environmentId, channelId, userId);
    let shard = this.shards.get(key);
    if (!shard) {
      shard = {
        key,
        channel: channelOf(environmentId, channelId),
        environmentId,
        channelId,
        users: new Map(),
        written: new Set(),
        changed: new Set(),
        dirty: false,
        writing: false,
        timer: undefined,
        tokens: RECORD_BURST,
        refilledAt: Date.now(),
        notBefore: 0,
      };
      this.shards.set(key, shard);
    }
    return shard;
  }

  /** Marks the shard for writing; the write starts once the previous one is done and spaced. */
  private schedule(shard: Shard): void {
    shard.dirty = true;
    if (shard.writing || shard.timer) return;
    shard.timer = setTimeout(() => {
      shard.timer = undefined;
      this.track(this.write(shard));
    }, this.waitOf(shard));
    shard.timer.unref();
  }

  /** How long the shard's next write waits: for a token of its bucket, and past a failure's back-off. */
  private waitOf(shard: Shard): number {
    const now = Date.now();
    shard.tokens = Math.min(RECORD_BURST, shard.tokens + (now - shard.refilledAt) / RECORD_SPACING_MS);
    shard.refilledAt = now;
    const forToken = shard.tokens >= 1 ? 0 : Math.ceil((1 - shard.tokens) * RECORD_SPACING_MS);
    return Math.max(forToken, shard.notBefore - now);
  }

  private track(work: Promise<void>): void {
    this.busy.add(work);
    void work.finally(() => this.busy.delete(work));
  }

  /** Writes the shard's users as they are now, then decides what the write changed. */
  private async write(shard: Shard): Promise<void> {
    shard.dirty = false;
    shard.writing = true;
    this.waitOf(shard);
    shard.tokens = Math.max(0, shard.tokens - 1);
    // what this write changes in the bucket, among the users who came or went since the last one
    const arrived: string[] = [];
    const departed: string[] = [];
    for (const userId of shard.changed) {
      const here = shard.users.has(userId);
      if (here && !shard.written.has(userId)) arrived.push(userId);
      else if (!here && shard.written.has(userId)) departed.push(userId);
    }
    shard.changed.clear();
    const value = encodeRecord(shard.users);
    let ok = false;
    try {
      const kv = await withDeadline(this.bucket(), KV_DEADLINE_MS, 'presence bucket');
      const revision = await this.slots.run(() => withDeadline(kv.put(shard.key, value), KV_DEADLINE_MS, 'presence write'));
      ok = true;
      this.failedWrites = 0;
      for (const userId of arrived) shard.written.add(userId);
      for (const userId of departed) shard.written.delete(userId);
      if (arrived.length > 0 || departed.length > 0) this.track(this.decide(shard, arrived, departed, revision));
    } catch (error) {
      // the next attempt writes the users as they are then, and decides these changes with it
      for (const userId of arrived) shard.changed.add(userId);
      for (const userId of departed) shard.changed.add(userId);
      shard.dirty = true;
      shard.notBefore = Date.now() + RETRY_MS;
      // one line per failing streak, not one per write: a NATS outage must not flood the log
      if (this.failedWrites++ === 0) this.deps.log.warn({ err: error }, 'presence write failed; retrying');
    } finally {
      shard.writing = false;
    }
    if (shard.dirty && this.watching !== false) this.schedule(shard);
    else if (ok && !shard.dirty && shard.users.size === 0 && this.shards.get(shard.key) === shard) this.shards.delete(shard.key);
  }

  /** A write's arrivals and departures, announced where the channel sends presence frames. */
  private async decide(shard: Shard, arrived: string[], departed: string[], revision: number): Promise<void> {
    try {
      if (!(await this.deps.joinLeave(shard.environmentId, shard.channelId))) return;
      const index = this.index;
      // the index, once it has seen our write; a watcher that lags or ended: the bucket itself
      if (index && (await index.caughtUp(revision, INDEX_WAIT_MS)) && index.live) {
        for (const userId of arrived) {
          if (!index.heldElsewhere(shard.channel, userId, this.instanceId, revision)) this.announce(shard, userId, true, revision);
        }
        for (const userId of departed) if (!index.heldElsewhere(shard.channel, userId, this.instanceId)) this.announce(shard, userId, false, revision);
        return;
      }
      const others = (await this.records(shard.channel)).filter((record) => record.gateway !== this.instanceId);
      for (const userId of arrived) {
        if (!others.some((record) => record.revision < revision && record.users.has(userId))) this.announce(shard, userId, true, revision);
      }
      for (const userId of departed) if (!others.some((record) => record.users.has(userId))) this.announce(shard, userId, false, revision);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'presence decision failed');
    }
  }

  /** The index once the bucket is open, if its watcher is live. */
  private async liveIndex(): Promise<PresenceRecordIndex | undefined> {
    try {
      await withDeadline(this.bucket(), KV_DEADLINE_MS, 'presence bucket');
    } catch (error) {
      throw new ServiceError('unavailable', 'presence is not reachable', { cause: error });
    }
    return this.index?.live ? this.index : undefined;
  }

  /** A channel's live records, read from the bucket (the index's fallback). */
  private async records(channel: string): Promise<{ gateway: string; revision: number; users: RecordUsers }[]> {
    try {
      const kv = await withDeadline(this.bucket(), KV_DEADLINE_MS, 'presence bucket');
      const found: { gateway: string; revision: number; users: RecordUsers }[] = [];
      for (const key of await listKeys(kv, `${channel}.*.*`)) {
        const entry = await withDeadline(kv.get(key), KV_DEADLINE_MS, 'presence read');
        const parts = splitRecordKey(key);
        if (!entry || entry.operation !== 'PUT' || !parts) continue;
        const users = decodeRecord(entry.value);
        if (users.size > 0) found.push({ gateway: parts.gateway, revision: entry.revision, users });
      }
      return found;
    } catch (error) {
      throw new ServiceError('unavailable', 'presence is not reachable', { cause: error });
    }
  }

  /** The bucket, opened on first use and retried after a failure; opening it starts the watcher. */
  private bucket(): Promise<KV> {
    if (!this.opened) {
      const opening = openBucket(this.deps.nc, `${this.deps.config.NATS_PREFIX}_presence_records`, this.deps.config.PRESENCE_TTL_MS);
      this.opened = opening;
      opening.then((kv) => this.watch(kv)).catch(() => {});
      opening.catch((error: unknown) => {
        this.deps.log.error({ err: error }, 'presence bucket unavailable');
        if (this.opened === opening) this.opened = undefined;
      });
    }
    return this.opened;
  }

  /**
   * One watcher of the whole bucket feeding the record index. Should it end (NATS gone), the
   * index is dropped, decisions and rosters read the bucket meanwhile, and a new watcher (with a
   * fresh index) is opened a second later.
   */
  private async watch(kv: KV): Promise<void> {
    if (this.watching === false) return;
    this.watching = true;
    const index = new PresenceRecordIndex(this.deps.config.PRESENCE_TTL_MS);
    try {
      const watcher = await kv.watch({ key: '>' });
      this.stopWatching = () => watcher.stop();
      if (this.watching) {
        this.index = index;
        for await (const entry of watcher) index.apply(entry);
      } else watcher.stop();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'presence watcher ended; presence reads the bucket until it is back');
    } finally {
      index.abandon();
      if (this.index === index) this.index = undefined;
    }
    if (this.watching) setTimeout(() => void this.watch(kv), 1_000).unref();
  }

  /** Records a decided change in its channel's window; the window's timer publishes it. */
  private announce(shard: Shard, userId: string, online: boolean, revision: number): void {
    const { environmentId, channelId, channel } = shard;
    let out = this.outgoing.get(channel);
    if (!out) {
      out = { environmentId, channelId, window: new PresenceWindow(), timer: undefined };
      this.outgoing.set(channel, out);
    }
    out.window.add({ userId, online, at: revision });
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
    for (const { userId, online } of batch.changes) {
      publishLog(this.deps.nc, this.deps.subjects, environmentId, 'debug', online ? 'presence.joined' : 'presence.left', { channelId, userId });
    }
  }

  /** Every third of the TTL: each record with users is written again (unchanged), so it does not age out. */
  private refresh(): void {
    this.index?.sweep();
    for (const shard of this.shards.values()) if (shard.users.size > 0) this.schedule(shard);
  }
}

/** The channel part of a record key. */
const channelOf = (environmentId: string, channelId: string) => `${environmentId}.${encodeToken(channelId)}`;
