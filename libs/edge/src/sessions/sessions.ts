import { HANDSHAKES_IN_FLIGHT, HANDSHAKES_PER_TURN, HandshakePacer } from './handshake-pacer.ts';
import { ServiceError } from '@rtm/errors';
import { OccupancyFrames } from '@rtm/presence';
import type { EdgeDeps } from '../edge-deps.ts';
import { Presence } from '../presence/presence.ts';
import { KickListener } from '../kicks/kicks.ts';
import { LocalSockets } from './local-sockets.ts';
import { SubjectFeed } from './subject-feed.ts';
import { SendBudget } from './send-budget.ts';
import { FairGate } from './fair-gate.ts';
import type { Link } from './link.ts';
import type { UserAuth } from '../auth/authenticate.ts';
import type { ChannelSocketHandle } from '../socket-events.ts';
import { FeedRegistry } from '../channels/channel-feed.ts';
import { readChanges, readLastSeq, readMessages } from '@rtm/channels';
import { TokenSockets } from './token-sockets.ts';
import { ConnectionQuota } from '../limits/connection-quota.ts';
import { QuotaThresholds } from '@rtm/webhooks';
import { namespaceOf, namespacesOf } from '../access/channel-access.ts';

/** What a gateway keeps about its live sockets: the registry, presence, kicks and the user feed. */
export interface Sessions {
  sockets: LocalSockets;
  /** The gateway's channel feeds: one NATS subscription per channel, shared by every socket and subscription. */
  channels: FeedRegistry;
  feed: SubjectFeed;
  presence: Presence;
  /** `occupancy` frames of the subscriptions that asked for them (read from presence's index). */
  occupancy: OccupancyFrames;
  /** Bytes queued to clients over all sockets (SOCKET_SEND_BUDGET); sheds the slowest. */
  budget: SendBudget;
  /**
   * Admission of subscribes (access check, feed join, last_seq read) and of each replay page
   * read: bounded per gateway and per environment, round-robin between environments
   * (SUBSCRIBE_CONCURRENCY, SUBSCRIBE_CONCURRENCY_PER_ENVIRONMENT, SUBSCRIBE_QUEUE_PER_ENVIRONMENT),
   * so one environment's storm of subscribes or resumes does not queue another's behind it.
   * `run(environmentId, work)` rejects with `rate_limited` when the environment's queue is full.
   */
  admission: FairGate;
  /**
   * When a WebSocket's handshake begins: a few per event-loop turn and a bounded number at once
   * (HANDSHAKES_PER_TURN, HANDSHAKES_IN_FLIGHT), so a burst of upgrades interleaves with the
   * gateway's other requests (handshake-pacer.ts).
   */
  handshakes: HandshakePacer;
  /**
   * The one place every authenticated channel and inbox socket passes, before its replay starts.
   * Arms the token's expiry (4401) and watches it for revocations (4401), and counts the socket
   * against its user's socket-open rate (userSocketOpensPerSecond). A quota on sockets per user or per environment is checked
   * here: a ServiceError thrown from here refuses the socket with its close code (4429 for
   * `rate_limited` and `quota_exceeded`). The environment's monthly connection-minutes are
   * checked first; an admitted socket counts in them until it closes.
   */
  admit(link: Link, auth: UserAuth, kind: 'channel' | 'inbox' | 'connect'): Promise<void>;
  /** Each socket's token, so a revocation closes its sockets (4401). */
  tokens: TokenSockets;
  /** The monthly connection-minute quota: socket time counted and flushed, new sockets refused past it (docs/quotas.md). */
  connectionQuota: ConnectionQuota;
  /** Starts presence's refresh rounds (the gateway's services.ts). */
  start(): void;
  /** Graceful drain: presence is given up at once (see Presence.stop). */
  stop(): Promise<void>;
}

/**
 * The gateway's sessions, built once with its dependencies (edge-deps.ts; no I/O until sockets come)
 * and wired to the socket events: channel sockets join presence, every socket becomes reachable
 * by kicks. Building reads only the parts of `deps` made before it (config, nc, sessionMetrics),
 * so `deps` may be the object this becomes part of.
 */
export function createSessions(
  deps: Pick<
    EdgeDeps,
    'accessCache' | 'config' | 'events' | 'limits' | 'log' | 'nc' | 'pool' | 'revocations' | 'sessionMetrics' | 'standings' | 'subjects' | 'usage'
  >,
): Sessions {
  const feed = new SubjectFeed(deps.nc);
  const kicks = new KickListener(deps, feed);
  const sockets = new LocalSockets({
    firstOfUser: (env, user) => kicks.watchUser(env, user),
    lastOfUser: (env, user) => kicks.unwatchUser(env, user),
    firstOfChannel: (env, channel) => kicks.watchChannel(env, channel),
    lastOfChannel: (env, channel) => kicks.unwatchChannel(env, channel),
  });
  kicks.attach(sockets);
  const presence = new Presence({
    nc: deps.nc,
    subjects: deps.subjects,
    config: deps.config,
    log: deps.log,
    entries: deps.sessionMetrics.presenceEntries,
    joinLeave: async (environmentId, channelId) => (await namespaceOf(deps, environmentId, channelId)).joinLeave,
    hooks: { pool: deps.pool, namespaces: (environmentId) => namespacesOf(deps, environmentId), usage: deps.usage },
    usage: deps.usage,
  });
  const metrics = deps.sessionMetrics;
  const budget = new SendBudget(deps.config.SOCKET_SEND_BUDGET, {
    share: deps.config.SOCKET_SEND_BUDGET_PER_ENVIRONMENT,
    checked: (queued, shed) => {
      metrics.queuedBytes.set(queued);
      if (shed > 0) metrics.shed.inc(shed);
    },
  });
  const admission = new FairGate({
    concurrency: deps.config.SUBSCRIBE_CONCURRENCY,
    perKey: deps.config.SUBSCRIBE_CONCURRENCY_PER_ENVIRONMENT,
    maxWaitingPerKey: deps.config.SUBSCRIBE_QUEUE_PER_ENVIRONMENT,
    // a unit stuck past a socket's whole handshake time gives its place back
    holdMs: deps.config.SOCKET_HANDSHAKE_MS,
    full: () => {
      metrics.admissionRefused.inc();
      return new ServiceError('rate_limited', 'too many subscribes waiting in this environment on this gateway: retry', { retryAfter: 1 });
    },
    changed: (gate) => {
      metrics.admissionRunning.set(gate.running);
      metrics.admissionWaiting.set(gate.waiting);
    },
  });
  // a channel socket and a subscription of a multiplexed connection are the same to presence and kicks
  const channelOpened = (handle: ChannelSocketHandle) => {
    sockets.add(handle);
    presence.join(handle);
    void kicks.verify(handle);
  };
  const channelClosed = (handle: ChannelSocketHandle) => {
    sockets.remove(handle);
    presence.leave(handle);
  };
  deps.events.on('channel.open', channelOpened);
  deps.events.on('channel.close', channelClosed);
  deps.events.on('subscription.open', channelOpened);
  deps.events.on('subscription.close', channelClosed);
  deps.events.on('inbox.open', (handle) => sockets.add(handle));
  deps.events.on('inbox.close', (handle) => sockets.remove(handle));
  deps.events.on('connect.open', (handle) => sockets.add(handle));
  deps.events.on('connect.close', (handle) => sockets.remove(handle));
  const connectionQuota = new ConnectionQuota({
    pool: deps.pool,
    flushMs: deps.config.QUOTA_FLUSH_MS,
    log: deps.log,
    thresholds: new QuotaThresholds(deps.pool, deps.log),
  });
  const sessions: Sessions = {
    sockets,
    // a feed's store is Postgres: the channel's last seq when it starts, the messages and changes of a gap
    channels: new FeedRegistry({
      nc: deps.nc,
      subjects: deps.subjects,
      log: deps.log,
      lastSeq: (environmentId, channelId) => readLastSeq(deps.pool, environmentId, channelId),
      read: (environmentId, channelId, range) => readMessages(deps.pool, environmentId, channelId, range),
      readChanges: (environmentId, channelId, range) => readChanges(deps.pool, environmentId, channelId, range),
    }),
    feed,
    presence,
    occupancy: new OccupancyFrames((environmentId, channelId) => presence.occupancyNow(environmentId, channelId)),
    budget,
    admission,
    handshakes: new HandshakePacer({ perTurn: HANDSHAKES_PER_TURN, inFlight: HANDSHAKES_IN_FLIGHT, holdMs: deps.config.SOCKET_HANDSHAKE_MS }),
    // its watch is where an authenticated socket starts and stops counting connection time
    tokens: new TokenSockets(connectionQuota),
    connectionQuota,
    async admit(link, auth) {
      // past the month's connection-minutes nothing else is worth checking
      await connectionQuota.admit(auth.environmentId);
      // the environment's share of the send budget counts this socket from now on
      link.environmentId = auth.environmentId;
      link.expireAt(auth.claims.expiresAt);
      sessions.tokens.watch(link, auth.claims);
      // a revocation that landed between the token check and the watch: refused here (4401)
      if (await deps.revocations.isRevoked(auth.claims)) throw new ServiceError('unauthorized', 'token revoked');
      // the user's socket opens per second (4429 over it), before the socket joins presence
      await deps.limits.admitSocketOpen(auth);
    },
    start: () => {
      connectionQuota.start();
      presence.start();
    },
    stop: async () => {
      sessions.occupancy.stop();
      await presence.stop();
      await connectionQuota.stop();
    },
  };
  return sessions;
}
