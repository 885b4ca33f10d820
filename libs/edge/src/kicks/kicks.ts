/**
 * Kicks: closing a user's live sockets on every gateway with 4403 (ending a multiplexed
 * connection's subscription with `unsubscribed {code}`) when a ban or a membership change takes
 * their access away; `code` is `banned` or `forbidden` (SocketHandle.revoke). The control plane
 * publishes; every gateway listens only on the subjects of environments and channels it holds
 * sockets for.
 *
 * Frames:
 * - on subjects.environmentControl(env):      {op:'kick', userId, code, reason} → all of the user's sockets
 *   (one subscription per environment with sockets here, not one per user: kicks are rare, users many)
 * - on subjects.channelControl(env, channel): {op:'kick', userId, code, reason} → the user's sockets on it
 * - on subjects.channelControl(env, channel): {op:'deleted'}                    → every socket on it (the channel was deleted)
 * - on subjects.channelControl(env, channel): {op:'recheck'}                    → every socket on it re-runs
 *   the access rule and those refused are closed (access switched to `members`).
 * - on subjects.accessChanged:                {environmentId, recheck: true}    → every channel socket of
 *   the environment re-runs the rule (a config deploy changed the environment's default access).
 * Re-checks read Postgres directly (never the access cache) in one query per gateway and change,
 * so every gateway closes the sockets that lost access within moments of the change's answer.
 */
import { isServiceError, type ServiceError } from '@rtm/errors';
import { SOCKET_CLOSE_WITH } from '../sockets/close-codes.ts';
import { encodeJson, publishLog } from '@rtm/bus';
import type { EdgeDeps } from '../edge-deps.ts';
import type { LocalSockets } from '../sessions/local-sockets.ts';
import type { FrameListener, SubjectFeed } from '../sessions/subject-feed.ts';
import type { ChannelSocketHandle, SocketHandle } from '../socket-events.ts';
import { checkUserChannelAccess, refusalsOf } from '../access/channel-access.ts';

/** What telling every gateway needs: the bus and its subjects. */
export type BusDeps = Pick<EdgeDeps, 'nc' | 'subjects'>;

export function kickFromEnvironment(deps: BusDeps, environmentId: string, userId: string, reason: string): void {
  deps.nc.publish(deps.subjects.environmentControl(environmentId), encodeJson({ op: 'kick', userId, code: 'banned', reason }));
  // gateways of the previous version listen on the user's own subject: kicked there too while any runs
  deps.nc.publish(deps.subjects.user(environmentId, userId), encodeJson({ op: 'kick', code: 'banned', reason }));
}

export function kickFromChannel(deps: BusDeps, environmentId: string, channelId: string, userId: string, reason: string, code: KickCode): void {
  deps.nc.publish(deps.subjects.channelControl(environmentId, channelId), encodeJson({ op: 'kick', userId, code, reason }));
}

/** Why access was taken away: a ban, or anything else (a removal, an access change). */
export type KickCode = 'banned' | 'forbidden';
const kickCode = (value: unknown): KickCode => (value === 'forbidden' ? 'forbidden' : 'banned');

export function recheckChannel(deps: BusDeps, environmentId: string, channelId: string): void {
  deps.nc.publish(deps.subjects.channelControl(environmentId, channelId), encodeJson({ op: 'recheck' }));
}

/**
 * After a change to an environment's default access: every gateway re-checks all its channel
 * sockets of that environment (and forgets its cached decisions). Resolves once the bus has it.
 */
export async function recheckEnvironment(deps: BusDeps, environmentId: string): Promise<void> {
  deps.nc.publish(deps.subjects.accessChanged, encodeJson({ environmentId, recheck: true }));
  await deps.nc.flush();
}

const pairKey = (socket: ChannelSocketHandle) => `${socket.channelId}\u0000${socket.userId}\u0000${socket.anon}`;

/** What kicks need: the bus, standings and bans from Postgres, metrics and the log. */
export type KickListenerDeps = Pick<EdgeDeps, 'log' | 'nc' | 'pool' | 'sessionMetrics' | 'standings' | 'subjects'>;

/** The listening side, one per gateway: subscribes while it holds sockets of a user or channel. */
export class KickListener {
  private readonly deps: KickListenerDeps;
  private readonly feed: SubjectFeed;
  private sockets!: LocalSockets;
  /** The listener of each subject watched, by subject (the same string the feed keys it by). */
  private readonly watched = new Map<string, FrameListener>();
  private watchingEnvironments = false;
  /** Users with sockets here, by environment. */
  private readonly usersByEnvironment = new Map<string, number>();

  constructor(deps: KickListenerDeps, feed: SubjectFeed) {
    this.deps = deps;
    this.feed = feed;
  }

  attach(sockets: LocalSockets): void {
    this.sockets = sockets;
  }

  /** A user's first socket here: the user's environment is watched while any of its users has one. */
  watchUser(environmentId: string, _userId: string): void {
    const users = this.usersByEnvironment.get(environmentId) ?? 0;
    this.usersByEnvironment.set(environmentId, users + 1);
    if (users > 0) return;
    this.watch(this.deps.subjects.environmentControl(environmentId), (frame) => {
      if (frame.op !== 'kick' || typeof frame.userId !== 'string') return;
      const reason = typeof frame.reason === 'string' ? frame.reason : 'banned';
      for (const socket of this.sockets.ofUser(environmentId, frame.userId)) this.close(socket, 'banned', reason, 'environment');
    });
  }

  watchChannel(environmentId: string, channelId: string): void {
    this.watchEnvironments();
    this.watch(this.deps.subjects.channelControl(environmentId, channelId), (frame) => {
      if (frame.op === 'kick' && typeof frame.userId === 'string') {
        const reason = typeof frame.reason === 'string' ? frame.reason : 'removed';
        const code = kickCode(frame.code);
        for (const socket of this.sockets.ofChannel(environmentId, channelId)) {
          if (socket.userId === frame.userId) this.close(socket, code, reason, 'channel');
        }
      } else if (frame.op === 'deleted') {
        for (const socket of this.sockets.ofChannel(environmentId, channelId)) this.close(socket, 'forbidden', 'channel deleted', 'channel');
      } else if (frame.op === 'recheck') {
        void this.recheck(environmentId, this.sockets.ofChannel(environmentId, channelId));
      }
    });
  }

  private watch(subject: string, listener: FrameListener): void {
    if (this.watched.has(subject)) return;
    this.watched.set(subject, listener);
    this.feed.subscribe(subject, listener);
  }

  /** From the first channel socket on (subscribing only then keeps building the gateway free of NATS). */
  private watchEnvironments(): void {
    if (this.watchingEnvironments) return;
    this.watchingEnvironments = true;
    this.feed.subscribe(this.deps.subjects.accessChanged, (frame) => {
      if (frame.recheck !== true || typeof frame.environmentId !== 'string') return;
      void this.recheck(frame.environmentId, this.sockets.channelSocketsOf(frame.environmentId));
    });
  }

  unwatchUser(environmentId: string, _userId: string): void {
    const users = (this.usersByEnvironment.get(environmentId) ?? 1) - 1;
    if (users > 0) return void this.usersByEnvironment.set(environmentId, users);
    this.usersByEnvironment.delete(environmentId);
    this.unwatch(this.deps.subjects.environmentControl(environmentId));
  }

  unwatchChannel(environmentId: string, channelId: string): void {
    this.unwatch(this.deps.subjects.channelControl(environmentId, channelId));
  }

  private unwatch(subject: string): void {
    const listener = this.watched.get(subject);
    if (!listener) return;
    this.watched.delete(subject);
    this.feed.unsubscribe(subject, listener);
  }

  /**
   * A channel socket's access was checked before it became reachable by kicks (it is added on
   * `channel.open`, after its replay). Checked again, uncached, once its subscriptions are live:
   * a ban or removal that landed in between is caught here, anything later by the kick itself.
   */
  async verify(socket: ChannelSocketHandle): Promise<void> {
    try {
      await this.feed.flush();
      await checkUserChannelAccess(this.deps.standings, socket.environmentId, socket.userId, socket.channelId, socket.anon);
    } catch (error) {
      if (isServiceError(error) && (error.code === 'forbidden' || error.code === 'banned')) {
        this.close(socket, error.code, error.reason ?? error.code, 'recheck');
      }
    }
  }

  private async recheck(environmentId: string, sockets: ChannelSocketHandle[]): Promise<void> {
    if (sockets.length === 0) return;
    const pairs = new Map<string, { channelId: string; userId: string; anon: boolean }>();
    for (const socket of sockets) {
      pairs.set(pairKey(socket), { channelId: socket.channelId, userId: socket.userId, anon: socket.anon });
    }
    let refusals: Map<string, ServiceError>;
    try {
      refusals = await refusalsOf(this.deps.pool, environmentId, [...pairs.values()]);
    } catch (error) {
      // Postgres unreachable: the access cache's TTL and the next change bound how long this lasts
      this.deps.log.warn({ err: error, environmentId }, 'access re-check failed');
      return;
    }
    for (const socket of sockets) {
      const refusal = refusals.get(pairKey(socket));
      if (refusal) this.close(socket, kickCode(refusal.code), refusal.reason ?? refusal.code, 'recheck');
    }
  }

  private close(socket: SocketHandle & { channelId?: string }, code: KickCode, reason: string, scope: 'environment' | 'channel' | 'recheck'): void {
    socket.revoke(code, reason);
    this.deps.sessionMetrics.kicks.inc({ scope });
    publishLog(this.deps.nc, this.deps.subjects, socket.environmentId, 'info', 'socket.kicked', {
      userId: socket.userId,
      socketId: socket.socketId,
      channelId: socket.channelId ?? null,
      code: SOCKET_CLOSE_WITH.revoked(reason).code,
      reason,
    });
  }
}
