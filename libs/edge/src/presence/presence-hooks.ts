/**
 * The presence webhook events of one gateway (docs/webhook-events.md, "Channel and presence
 * events"): `channel.occupied`, `channel.vacated`, `channel.occupancy`, `presence.entered`,
 * `presence.left`. The decisions are @rtm/presence's (hook-tracker.ts: once per cluster, from the
 * presence index; hook-window.ts: gathered per window); here, the I/O around them:
 *
 * - **Where they are wanted.** Every INTEREST_REFRESH_MS the gateway reads the enabled endpoints
 *   that name one of the types (one query on a partial index, whatever the number of
 *   environments), and for the environments whose endpoints name `presence.*` their namespaces
 *   (`presenceWebhooks`, through the access cache). A channel no endpoint wants is not tracked:
 *   no transition is weighed, nothing is written.
 * - **Recording.** The window's events (and the occupancy round's) go to Postgres in ONE
 *   statement per HOOK_WINDOW_MS (`recordWebhookEvents`: a delivery per endpoint whose filters
 *   take the event, in the ledger, sent by the dispatchers like any event). Event ids are drawn
 *   from the decision (`derivedId`), so a decision two gateways both record makes one delivery
 *   (the ledger's unique event id per endpoint). A statement that fails is tried again with the
 *   next window (at most MAX_PENDING events wait; beyond, the oldest are dropped and logged).
 * - **Occupancy.** Every PRESENCE_OCCUPANCY_WEBHOOK_MS, at wall-clock slot boundaries, the counts
 *   of the tracked channels whose occupancy is wanted; the event id is the slot's, so a channel
 *   gets at most one per slot even if two gateways both think they report it.
 */
import type { Usage } from '@rtm/usage';
import { decodeToken } from '@rtm/bus';
import { derivedId, withTransaction, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { resolveNamespace, type Namespace, type PresenceDefaults } from '@rtm/rules';
import { HOOK_WINDOW_MS, HookTracker, HookWindow, type HookEvent, type HookInterest, type HookTransition, type PresenceStore } from '@rtm/presence';
import type { WebhookEventType } from '@rtm/schemas';
import { endpointTakes, readPresenceEndpoints, recordWebhookEvents, type PresenceEndpoint, type WebhookEventInput } from '@rtm/webhooks';

/** How often a gateway reads which endpoints want presence events (an endpoint's change reaches them within it). */
export const INTEREST_REFRESH_MS = 5_000;
/** The occupancy round runs this long after each slot boundary (the writes of the boundary reach the index). */
const OCCUPANCY_SETTLE_MS = 250;
/** Events kept for the next statement after a failed one. */
const MAX_PENDING = 10_000;

const CHANNEL_TYPES: readonly WebhookEventType[] = ['channel.occupied', 'channel.vacated'];
const ENTRY_TYPES: readonly WebhookEventType[] = ['presence.entered', 'presence.left'];

export interface PresenceHooksDeps {
  pool: Pool;
  log: Logger;
  /** This gateway's presence instance id (the record keys'). */
  self: string;
  ttlMs: number;
  occupancyMs: number;
  /** An environment's namespaces and presence defaults (the access cache's, channel-access.ts). */
  namespaces(environmentId: string): Promise<{ namespaces: Namespace[]; defaults: PresenceDefaults | null }>;
  /** Counts the deliveries recorded, once committed (docs/stats.md, `webhook_events`). */
  usage?: Usage;
}

interface Wanted {
  endpoints: PresenceEndpoint[];
  namespaces?: { namespaces: Namespace[]; defaults: PresenceDefaults | null };
}

export class PresenceHooks {
  readonly tracker: HookTracker;
  private readonly deps: PresenceHooksDeps;
  /** Environment → the endpoints that name a presence type there (and its namespaces, for entries). */
  private wanted = new Map<string, Wanted>();
  private version = 0;
  /** Record channel → what is wanted of it, for the current version. */
  private readonly interests = new Map<string, HookInterest | null>();
  private readonly window = new HookWindow();
  private pending: WebhookEventInput[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private occupancyTimer: NodeJS.Timeout | undefined;
  private store: PresenceStore | undefined;
  private flushing: Promise<void> | undefined;
  private failing = false;

  constructor(deps: PresenceHooksDeps) {
    this.deps = deps;
    this.tracker = new HookTracker({
      self: deps.self,
      ttlMs: deps.ttlMs,
      interest: (channel) => this.interest(channel),
      version: () => this.version,
      anyWanted: () => this.wanted.size > 0,
      emit: (transitions) => this.report(transitions),
    });
  }

  /** Starts reading where the events are wanted, and the occupancy rounds, over `store`. */
  start(store: PresenceStore): void {
    this.store = store;
    if (this.refreshTimer) return;
    void this.refresh();
    this.refreshTimer = setInterval(() => void this.refresh(), INTEREST_REFRESH_MS);
    this.refreshTimer.unref();
    this.scheduleOccupancy();
  }

  /** Stops the timers and records what is waiting now. */
  async stop(): Promise<void> {
    clearInterval(this.refreshTimer);
    clearTimeout(this.occupancyTimer);
    this.refreshTimer = undefined;
    this.occupancyTimer = undefined;
    await this.flush();
  }

  /** Reads the endpoints that want presence events; a failure keeps the last answer. */
  async refresh(): Promise<void> {
    try {
      const endpoints = await readPresenceEndpoints(this.deps.pool);
      const wanted = new Map<string, Wanted>();
      for (const endpoint of endpoints) {
        let env = wanted.get(endpoint.environmentId);
        if (!env) wanted.set(endpoint.environmentId, (env = { endpoints: [] }));
        env.endpoints.push(endpoint);
      }
      for (const [environmentId, env] of wanted) {
        if (env.endpoints.some((endpoint) => ENTRY_TYPES.some((type) => endpoint.eventTypes.includes(type)))) {
          env.namespaces = await this.deps.namespaces(environmentId);
        }
      }
      this.wanted = wanted;
      this.version++;
      this.interests.clear();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'presence webhooks: could not read which endpoints want them; keeping the last answer');
    }
  }

  /** What is wanted of a record channel (`<env>.<channel token>`); undefined: nothing. */
  interest(channel: string): HookInterest | undefined {
    const cached = this.interests.get(channel);
    if (cached !== undefined) return cached ?? undefined;
    const dot = channel.indexOf('.');
    const env = this.wanted.get(channel.slice(0, dot));
    if (!env) return undefined;
    const channelId = decodeToken(channel.slice(dot + 1));
    const takes = (type: WebhookEventType) => env.endpoints.some((endpoint) => endpointTakes(endpoint, type, channelId));
    const entriesOn = env.namespaces !== undefined && resolveNamespace(env.namespaces.namespaces, channelId, env.namespaces.defaults).presenceWebhooks;
    const interest: HookInterest = {
      channel: CHANNEL_TYPES.some(takes),
      occupancy: takes('channel.occupancy'),
      entries: entriesOn && ENTRY_TYPES.some(takes),
    };
    const any = interest.channel || interest.occupancy || interest.entries;
    this.interests.set(channel, any ? interest : null);
    return any ? interest : undefined;
  }

  /** Transitions this gateway reports: into the window, recorded when it closes. */
  private report(transitions: HookTransition[]): void {
    for (const transition of transitions) this.window.add(transition);
    this.arm();
  }

  private arm(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, HOOK_WINDOW_MS);
    this.flushTimer.unref();
  }

  /** Records the window's events and those waiting, in one statement. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    for (const event of this.window.drain()) {
      const input = this.inputOf(event);
      if (input) this.pending.push(input);
    }
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    this.flushing = (async () => {
      try {
        const environments: string[] = [];
        await withTransaction(this.deps.pool, (client) => recordWebhookEvents(client, events, environments));
        for (const environmentId of environments) this.deps.usage?.add(environmentId, 'webhook_events');
        this.failing = false;
      } catch (error) {
        if (!this.failing) this.deps.log.warn({ err: error }, 'presence webhooks: recording failed; trying again with the next window');
        this.failing = true;
        this.pending = [...events, ...this.pending];
        if (this.pending.length > MAX_PENDING) {
          const dropped = this.pending.splice(0, this.pending.length - MAX_PENDING);
          this.deps.log.warn({ dropped: dropped.length }, 'presence webhooks: too many waiting; the oldest are dropped');
        }
        this.arm();
      }
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  /** An event as the ledger takes it, or undefined when no endpoint wants its type on its channel any more. */
  private inputOf(event: HookEvent): WebhookEventInput | undefined {
    const dot = event.channel.indexOf('.');
    const environmentId = event.channel.slice(0, dot);
    const channelId = decodeToken(event.channel.slice(dot + 1));
    if (!this.wanted.get(environmentId)?.endpoints.some((endpoint) => endpointTakes(endpoint, event.type, channelId))) return undefined;
    const members = event.members?.map((member) => `{"userId":${JSON.stringify(member.userId)},"data":${member.data}}`).join(',');
    return {
      environmentId,
      channelId,
      eventId: derivedId('evt', event.idTime, `${environmentId}|${event.key}`),
      type: event.type,
      timestamp: event.time,
      data: `{"channelId":${JSON.stringify(channelId)}${members === undefined ? '' : `,"members":[${members}]`}}`,
    };
  }

  /** The next occupancy round, just after the next slot boundary. */
  private scheduleOccupancy(): void {
    const period = this.deps.occupancyMs;
    const wait = period - (Date.now() % period) + OCCUPANCY_SETTLE_MS;
    this.occupancyTimer = setTimeout(() => {
      this.occupancyRound();
      if (this.refreshTimer) this.scheduleOccupancy();
    }, wait);
    this.occupancyTimer.unref();
  }

  /** The counts of the occupied channels whose occupancy is wanted and changed, one event per channel and slot. */
  occupancyRound(now = Date.now()): void {
    if (!this.store) return;
    const period = this.deps.occupancyMs;
    const slot = Math.floor(now / period);
    for (const { channel, connections, users } of this.store.occupancyRound()) {
      const dot = channel.indexOf('.');
      const environmentId = channel.slice(0, dot);
      const channelId = decodeToken(channel.slice(dot + 1));
      if (!this.wanted.get(environmentId)?.endpoints.some((endpoint) => endpointTakes(endpoint, 'channel.occupancy', channelId))) continue;
      this.pending.push({
        environmentId,
        channelId,
        eventId: derivedId('evt', slot * period, `${environmentId}|channel.occupancy|${channel}|${slot}`),
        type: 'channel.occupancy',
        timestamp: slot * period,
        data: JSON.stringify({ channelId, connections, users }),
      });
    }
    if (this.pending.length > 0) this.arm();
  }
}
