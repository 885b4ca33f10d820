/**
 * Channel presence across gateways. A user is online in a channel while they hold at least one
 * live channel socket on it, on any gateway.
 *
 * Store: a NATS KV bucket `<NATS_PREFIX>_presence` (memory storage, one value per key, max age
 * PRESENCE_TTL_MS). Each gateway writes one key per (environment, channel, user) it holds
 * sockets for: `<env>.<channel>.<user>.<gateway instance>` (ids base64url-encoded) and rewrites
 * all of them every third of the TTL. A gateway that dies stops refreshing and its keys age out,
 * so presence expires instead of leaking.
 *
 * Changes: a user comes online when a gateway gets their first socket on the channel and no other
 * gateway held them; goes offline when a gateway drops their last socket and no other gateway
 * holds them. A gateway that dies sends no offline change; its users disappear from rosters when
 * their keys expire.
 *
 * Frames, coalesced (coalesce.ts): each gateway gathers its changes per channel for
 * PRESENCE_WINDOW_MS and publishes each user's latest decision of the window in ONE message
 * `{op:'presence', changes:[{userId, online, at}]}` on subjects.channel(env, channel); each
 * gateway's channel feed gathers those again per window and sends its sockets one
 * `{op:'presence', joined, left}` frame. So a channel costs at most one bus message per gateway
 * and one frame per socket per window, however fast users come and go.
 */
import { encodeJson, encodeToken, decodeToken, publishLog, type NatsConnection } from '@rtm/bus';
import { newId } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { StorageType, type KV } from 'nats';
import type { GatewayDeps } from '../deps.ts';
import type { ChannelSocketHandle } from '../socket-events.ts';
import { PRESENCE_WINDOW_MS, PresenceWindow } from './coalesce.ts';
import { PresenceKeyIndex } from './key-index.ts';

/** Presence KV operations in flight at once; more wait their turn instead of timing out together. */
const KV_CONCURRENCY = 64;
/** The longest one presence step (or a roster's key listing) may take: a stalled one frees its slot. */
const KV_DEADLINE_MS = 10_000;
/**
 * How long a decision waits for the bucket's watcher to deliver its own write or purge before it
 * looks in the bucket instead: a watcher that stalls without ending (its consumer being reset
 * under load) would otherwise hold every decision until KV_DEADLINE_MS, and a departure stuck so
 * leaves listeners believing the user is still there.
 */
const INDEX_WAIT_MS = 2_000;
/** A departure that failed is tried again after this long (departLater). */
const DEPART_RETRY_MS = 1_000;

/** `promise`, or a rejection after `ms`: nothing in presence may wait on NATS for ever. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`${what} took over ${ms} ms`));
    }, ms);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The keys under `filter` (a KV listing is a short-lived JetStream consumer), within the deadline. */
async function listKeys(kv: KV, filter: string): Promise<string[]> {
  let stop: (() => void) | undefined;
  const collect = (async () => {
    const iterator = await kv.keys(filter);
    stop = () => iterator.stop();
    const keys: string[] = [];
    for await (const key of iterator) keys.push(key);
    return keys;
  })();
  return withDeadline(collect, KV_DEADLINE_MS, 'presence key listing', () => stop?.());
}

/** A counting semaphore: `run` starts `task` once fewer than `limit` are running. */
class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

interface Held {
  environmentId: string;
  channelId: string;
  userId: string;
  /**
   * The socket ids holding the pair here: nearly always one (a Set from the second on), and a
   * gateway holds one pair per subscription, so a Set each would cost it ~150 bytes per socket.
   */
  sockets: string | Set<string>;
}

/** One channel's changes waiting to be published, with the one timer that publishes them. */
interface Outgoing {
  environmentId: string;
  channelId: string;
  window: PresenceWindow;
  timer: NodeJS.Timeout | undefined;
}

export class Presence {
  private readonly deps: GatewayDeps;
  /** This process's identity in presence keys: a restart is a new holder. */
  readonly instanceId = newId('gw');
  private readonly held = new Map<string, Held>();
  /** Per-key chain, so join/leave of one user on one channel apply in order. */
  private readonly chains = new Map<string, Promise<void>>();
  private opened: Promise<KV> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly slots = new Slots(KV_CONCURRENCY);
  /** A refresh round still running: the next tick skips instead of piling a second round on it. */
  private refreshing = false;
  /** Per channel: the changes decided in the current window, published together when it closes. */
  private readonly outgoing = new Map<string, Outgoing>();
  /** Every gateway's keys, from one watcher of the bucket opened with it (key-index.ts); none until then. */
  /**
   * This gateway's keys in the bucket, by key: written (or their write tried) and not purged
   * since, with the revision of the latest write once known. A key, not a socket's entry: when a
   * user's last socket closes and another opens before the departure runs, the departure is
   * skipped (the user is still here); should that second socket close before its own arrival
   * wrote anything, its departure must still purge what the first one wrote, or the key stays
   * until it ages out and no listener ever hears that the user left.
   */
  private readonly written = new Map<string, { revision?: number }>();
  private index: PresenceKeyIndex | undefined;
  private stopWatching: (() => void) | undefined;
  /** Undefined until the bucket opens; false once stopped (no watcher is reopened). */
  private watching: boolean | undefined;

  constructor(deps: GatewayDeps) {
    this.deps = deps;
  }

  /** Starts the refresh rounds that keep this gateway's keys from expiring. */
  start(): void {
    this.heartbeat ??= setInterval(() => void this.refresh(), Math.max(250, Math.floor(this.deps.config.PRESENCE_TTL_MS / 3)));
    this.heartbeat.unref();
  }

  join(handle: ChannelSocketHandle): void {
    const key = this.keyOf(handle.environmentId, handle.channelId, handle.userId);
    const found = this.held.get(key);
    if (found) {
      if (typeof found.sockets !== 'string') found.sockets.add(handle.socketId);
      else if (found.sockets !== handle.socketId) found.sockets = new Set([found.sockets, handle.socketId]);
      return;
    }
    const held: Held = { environmentId: handle.environmentId, channelId: handle.channelId, userId: handle.userId, sockets: handle.socketId };
    this.held.set(key, held);
    this.deps.sessionMetrics.presenceEntries.set(this.held.size);
    this.chain(key, () => this.arrive(key, held));
  }

  leave(handle: ChannelSocketHandle): void {
    const key = this.keyOf(handle.environmentId, handle.channelId, handle.userId);
    const held = this.held.get(key);
    if (!held) return;
    if (typeof held.sockets === 'string') {
      if (held.sockets !== handle.socketId) return;
    } else if (!held.sockets.delete(handle.socketId) || held.sockets.size > 0) return;
    this.held.delete(key);
    this.deps.sessionMetrics.presenceEntries.set(this.held.size);
    this.departLater(key, held, 0);
  }

  /**
   * Queues the departure of `key`. One that fails (the purge refused, or unanswered within the
   * deadline) is tried again a second later while the key is ours in the bucket and nobody holds
   * it here: otherwise the key would stay until it ages out and no listener would hear the user
   * left (another gateway's departure sees it and stays silent).
   */
  private departLater(key: string, held: Held, delayMs: number): void {
    const queue = () =>
      this.chain(key, () => this.depart(key, held), () => {
        if (this.watching !== false) this.departLater(key, held, DEPART_RETRY_MS);
      });
    if (delayMs === 0) return queue();
    setTimeout(() => {
      if (this.watching !== false && !this.held.has(key) && this.written.has(key)) queue();
    }, delayMs).unref();
  }

  /** The users online in a channel on any gateway. */
  async online(environmentId: string, channelId: string): Promise<Set<string>> {
    const users = new Set<string>();
    try {
      const kv = await withDeadline(this.bucket(), KV_DEADLINE_MS, 'presence bucket');
      for (const key of await listKeys(kv, `${environmentId}.${encodeToken(channelId)}.>`)) {
        const token = key.split('.')[2];
        if (token) users.add(decodeToken(token));
      }
    } catch (error) {
      throw new ServiceError('unavailable', 'presence is not reachable', { cause: error });
    }
    return users;
  }

  /**
   * Graceful drain: this gateway lets go of everything it holds now (keys purged, `online:false`
   * where nobody else holds the user) instead of waiting for its sockets' close events or the TTL.
   * Waits for that, at most `limitMs`.
   */
  async stop(limitMs = 3_000): Promise<void> {
    clearInterval(this.heartbeat);
    this.watching = false;
    this.stopWatching?.();
    for (const [key, held] of [...this.held]) {
      this.held.delete(key);
      this.chain(key, () => this.depart(key, held));
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.chains.values()]),
      new Promise((resolve) => (timer = setTimeout(resolve, limitMs))),
    ]);
    clearTimeout(timer);
    // the offline changes just decided go out now, not a window later
    for (const key of [...this.outgoing.keys()]) this.flush(key);
  }

  /** The bucket, opened on first use (not while the gateway is built) and retried after a failure. */
  private bucket(): Promise<KV> {
    if (!this.opened) {
      const opening = openBucket(this.deps.nc, `${this.deps.config.NATS_PREFIX}_presence`, this.deps.config.PRESENCE_TTL_MS);
      this.opened = opening;
      opening.then((kv) => this.watch(kv)).catch(() => {});
      opening.catch((error: unknown) => {
        this.deps.log.error({ err: error }, 'presence bucket unavailable');
        if (this.opened === opening) this.opened = undefined;
      });
    }
    return this.opened;
  }

  private keyOf(environmentId: string, channelId: string, userId: string): string {
    return `${environmentId}.${encodeToken(channelId)}.${encodeToken(userId)}.${this.instanceId}`;
  }

  private chain(key: string, step: () => Promise<void>, onFailure?: () => void): void {
    const next = (this.chains.get(key) ?? Promise.resolve())
      .then(() => this.slots.run(() => withDeadline(step(), KV_DEADLINE_MS, 'presence update')))
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error }, 'presence update failed');
        onFailure?.();
      });
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  /**
   * One watcher of the whole bucket feeding the key index, so arrivals and departures look up
   * other gateways' keys locally. Should it end (NATS gone), the index is dropped, decisions list
   * the bucket meanwhile, and a new watcher (with a fresh index) is opened a second later.
   */
  private async watch(kv: KV): Promise<void> {
    if (this.watching === false) return;
    this.watching = true;
    const index = new PresenceKeyIndex(this.deps.config.PRESENCE_TTL_MS, this.instanceId);
    try {
      const watcher = await kv.watch({ key: '>', headers_only: true });
      this.stopWatching = () => watcher.stop();
      if (this.watching) {
        this.index = index;
        for await (const entry of watcher) index.apply(entry);
      } else watcher.stop();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'presence watcher ended; presence lists the bucket until it is back');
    } finally {
      index.abandon();
      if (this.index === index) this.index = undefined;
    }
    if (this.watching) setTimeout(() => void this.watch(kv), 1_000).unref();
  }

  /** Other gateways' keys for the same user and channel, listed in the bucket (the index's fallback). */
  private async othersOf(kv: KV, key: string): Promise<string[]> {
    const prefix = key.slice(0, key.lastIndexOf('.'));
    return (await listKeys(kv, `${prefix}.*`)).filter((other) => other !== key);
  }

  /**
   * Write first, then look. The user comes online unless another gateway's key was written
   * before ours (a lower revision): of two first sockets racing on two gateways exactly one (or,
   * after a heartbeat rewrote the older key, both) announces, never neither. Against a departure
   * elsewhere, whichever of the two looks last sees the other, and its decision is the later (`at`).
   */
  private async arrive(key: string, held: Held): Promise<void> {
    // a leave may have followed before this step ran: then there is nothing to announce
    if (this.held.get(key) !== held) return;
    const kv = await this.bucket();
    const write: { revision?: number } = {};
    this.written.set(key, write);
    const mine = await kv.put(key, this.instanceId);
    write.revision = mine;
    const index = this.index;
    // the index, once it has seen our write; a watcher that lags or ended: the bucket itself
    if (index && (await index.caughtUp(mine, INDEX_WAIT_MS)) && index.live) {
      if (!index.others(key).some((other) => other.revision < mine)) this.announce(held, true, mine);
      return;
    }
    let first = true;
    for (const other of await this.othersOf(kv, key)) {
      const entry = await kv.get(other);
      if (entry && entry.operation === 'PUT' && entry.revision < mine) first = false;
      if (!first) break;
    }
    if (first) this.announce(held, true, mine);
  }

  private async depart(key: string, held: Held): Promise<void> {
    // still held (a socket came back), or nothing of ours in the bucket (every arrival since the
    // last purge left before it ran): nothing to undo
    const write = this.written.get(key);
    if (this.held.has(key) || !write) return;
    const kv = await this.bucket();
    const index = this.index;
    const mark = index?.removalsOf(key) ?? 0;
    await kv.purge(key);
    // forgotten once purged (a purge that fails or hangs leaves it, for the retry: chain), and only
    // if no arrival wrote the key again meanwhile
    if (this.written.get(key) === write) this.written.delete(key);
    const revision = write.revision;
    if (index) {
      const purged = await index.removed(key, mark, INDEX_WAIT_MS);
      if (index.live && purged !== undefined) {
        if (index.others(key).length === 0) this.announce(held, false, purged);
        return;
      }
    }
    if ((await this.othersOf(kv, key)).length === 0) this.announce(held, false, await this.purgeRevision(kv, key, revision));
  }

  /** The revision of `key`'s purge marker, read back (the index's fallback); just after our last write (`written`) if it is gone. */
  private async purgeRevision(kv: KV, key: string, written: number | undefined): Promise<number> {
    const marker = await kv.get(key).catch(() => null);
    return marker && marker.operation !== 'PUT' ? marker.revision : (written ?? 0) + 0.5;
  }

  /** Records a decided change in its channel's window; the window's timer publishes it. */
  private announce(held: Held, online: boolean, revision: number): void {
    const { environmentId, channelId, userId } = held;
    const key = `${environmentId}\u0000${channelId}`;
    let out = this.outgoing.get(key);
    if (!out) {
      out = { environmentId, channelId, window: new PresenceWindow(), timer: undefined };
      this.outgoing.set(key, out);
    }
    out.window.add({ userId, online, at: revision });
    if (!out.timer) {
      out.timer = setTimeout(() => this.flush(key), PRESENCE_WINDOW_MS);
      out.timer.unref();
    }
  }

  /** Publishes one channel's window as one message: each user's latest decision in it. */
  private flush(key: string): void {
    const out = this.outgoing.get(key);
    if (!out) return;
    clearTimeout(out.timer);
    this.outgoing.delete(key);
    const batch = out.window.drain(Date.now());
    if (!batch) return;
    const { environmentId, channelId } = out;
    this.deps.nc.publish(this.deps.subjects.channel(environmentId, channelId), encodeJson({ op: 'presence', changes: batch.changes }));
    for (const { userId, online } of batch.changes) {
      publishLog(this.deps.nc, this.deps.subjects, environmentId, 'debug', online ? 'presence.joined' : 'presence.left', { channelId, userId });
    }
  }

  private async refresh(): Promise<void> {
    this.index?.sweep();
    if (this.held.size === 0 || this.refreshing) return;
    this.refreshing = true;
    let failed = 0;
    let lastError: unknown;
    try {
      const kv = await this.bucket();
      await Promise.all(
        [...this.held.keys()].map((key) =>
          this.slots.run(async () => {
            if (!this.held.has(key)) return;
            await kv.put(key, this.instanceId).catch((error: unknown) => {
              failed++;
              lastError = error;
            });
          }),
        ),
      );
    } catch (error) {
      lastError = error;
      failed++;
    } finally {
      this.refreshing = false;
    }
    // one line per round, not one per key: a NATS outage must not flood the log
    if (failed > 0) this.deps.log.warn({ err: lastError, failed, held: this.held.size }, 'presence refresh failed');
  }
}

async function openBucket(nc: NatsConnection, name: string, ttlMs: number): Promise<KV> {
  const js = nc.jetstream();
  try {
    return await js.views.kv(name, { ttl: ttlMs, history: 1, storage: StorageType.Memory });
  } catch {
    // created by a gateway with another TTL: use it as it is
    return js.views.kv(name, { bindOnly: true });
  }
}
