import type { Core } from './core.ts';
import { Emitter } from './emitter.ts';
import { RtmError } from './errors.ts';
import { getJson } from './http.ts';
import type { PresenceBatch, PresenceChange, PresenceMember, RosterEntry } from './types.ts';

export interface PresenceEvents {
  /** A user came online in the channel (one of their subscriptions went live). */
  join: (userId: string) => void;
  /** A user went offline (their last subscription of the channel ended, on every gateway). */
  leave: (userId: string) => void;
  /** A user entered the channel's presence with `data` (`null` when entered without). */
  enter: (userId: string, data: unknown) => void;
  /** A user's presence data changed. */
  update: (userId: string, data: unknown) => void;
  /** A user left the channel's presence (`presence.leave()`, or their entered subscription ended); they may still be online. */
  exit: (userId: string) => void;
  /**
   * Once per presence frame, after its other events: every user who came or went, entered,
   * updated or exited in that interval (the server sends at most one presence frame per channel
   * every 250 ms).
   */
  change: (batch: PresenceBatch) => void;
}

/** The most presence data the server takes, serialized (UTF-8 bytes). */
export const PRESENCE_DATA_MAX = 1024;

/** What presence needs of its channel. */
export interface PresenceChannel {
  /** At least one listener holds the channel (a subscription exists or is wanted). */
  readonly subscribed: boolean;
  /** The channel's subscription is live on the current connection (after `subscribed`). */
  readonly live: boolean;
}

/** A call waiting for the server: `version` is the entry it asked for (`#version` when it was made). */
type Waiter = { version: number; resolve: () => void; reject: (error: RtmError) => void };

const serialized = (data: unknown): string => JSON.stringify(data === undefined ? null : data);

/**
 * Who is in a channel: the roster over HTTP; join/leave and enter/update/exit from a subscribed
 * channel's presence frames; and this client's own entry (`enter`, `update`, `leave`).
 *
 * The entry belongs to the channel's subscription on the server: it is sent once the subscription
 * is live, sent again after every re-subscription (a reconnect, a resume), and left when the last
 * listener unsubscribes. The SDK keeps the entry it was asked for and brings the server to it one
 * request at a time; the promise of `enter`/`update`/`leave` resolves once the server answered a
 * request carrying what it asked (or a later ask), and rejects with the server's refusal (a
 * refusal drops every ask still waiting: the entry is what the server holds).
 */
export class Presence {
  readonly #core: Core;
  readonly #channelId: string;
  readonly #events = new Emitter<PresenceEvents>();
  #channel: PresenceChannel | undefined;
  /** The entry asked for (undefined: not entered): its data serialized. */
  #wanted: string | undefined;
  /** The entry the server holds for the current subscription (undefined: none). */
  #held: string | undefined;
  /** The request in flight: its ref and what it asks. */
  #sent: { ref: number; op: 'presence-enter' | 'presence-update' | 'presence-leave'; data?: string; version: number } | undefined;
  #waiters: Waiter[] = [];
  /** Counts the asks: a request carries the latest, and answers every waiter up to it. */
  #version = 0;

  constructor(core: Core, channelId: string) {
    this.#core = core;
    this.#channelId = channelId;
  }

  /** @internal the channel, once built. */
  attach(channel: PresenceChannel): void {
    this.#channel = channel;
  }

  /** True while this client has entered the channel's presence (or is entering it). */
  get entered(): boolean {
    return this.#wanted !== undefined;
  }

  /**
   * The whole roster: members and everyone online, sorted by userId, with the presence `data` of
   * those who entered (`GET /v1/channels/{id}/members`, every page in turn). For a big channel
   * read it a page at a time with `page`.
   */
  async get(): Promise<RosterEntry[]> {
    const all: RosterEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.page({ cursor });
      all.push(...page.members);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return all;
  }

  /** One page of the roster (at most `limit`, default and maximum 1,000), after `cursor` (a previous page's `nextCursor`). */
  async page(options: { limit?: number; cursor?: string } = {}): Promise<{ members: RosterEntry[]; nextCursor: string | null }> {
    const query = new URLSearchParams();
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.cursor !== undefined) query.set('cursor', options.cursor);
    const text = query.toString();
    const suffix = text ? `?${text}` : '';
    const body = await getJson<{ members: RosterEntry[]; nextCursor?: string | null }>(
      this.#core.http,
      `/v1/channels/${encodeURIComponent(this.#channelId)}/members${suffix}`,
    );
    return { members: body.members, nextCursor: body.nextCursor ?? null };
  }

  /**
   * Enters the channel's presence with `data` (any JSON, at most 1 KiB serialized), or replaces
   * the data when already entered. The channel must be subscribed (`channel.subscribe`); the entry
   * is sent once the subscription is live. Needs the `presence` capability and presence on in the
   * channel's namespace.
   */
  enter(data?: unknown): Promise<void> {
    if (!this.#channel?.subscribed) {
      return Promise.reject(new RtmError('invalid_request', `subscribe to channel ${this.#channelId} before entering its presence`));
    }
    return this.#want(data);
  }

  /** Replaces the data of this client's entry; rejects with `invalid_request` when not entered. */
  update(data: unknown): Promise<void> {
    if (this.#wanted === undefined) return Promise.reject(new RtmError('invalid_request', `not entered in channel ${this.#channelId}: enter first`));
    return this.#want(data);
  }

  /** Leaves the channel's presence; the subscription stays. Resolves at once when not entered. */
  leave(): Promise<void> {
    this.#wanted = undefined;
    this.#version++;
    return this.#wait();
  }

  on<K extends keyof PresenceEvents>(name: K, listener: PresenceEvents[K]): () => void {
    return this.#events.on(name, listener);
  }

  // ---- driven by the channel ----

  /** @internal */
  emit(change: PresenceChange): void {
    this.#events.emit(change.online ? 'join' : 'leave', change.userId);
  }

  /** @internal a presence frame's entries, then its batch. */
  emitEntries(entered: PresenceMember[], updated: PresenceMember[], exited: string[]): void {
    for (const { userId, data } of entered) this.#events.emit('enter', userId, data);
    for (const { userId, data } of updated) this.#events.emit('update', userId, data);
    for (const userId of exited) this.#events.emit('exit', userId);
  }

  /** @internal */
  emitBatch(batch: PresenceBatch): void {
    this.#events.emit('change', batch);
  }

  /** @internal the subscription went live (again): the server holds no entry yet. */
  subscribed(): void {
    this.#held = undefined;
    this.#sent = undefined;
    this.#sync();
  }

  /** @internal the subscription is gone (connection lost, resubscribing): its entry went with it. */
  lost(): void {
    this.#held = undefined;
    this.#sent = undefined;
  }

  /** @internal the channel is no longer subscribed (last listener gone, or ended by the server). */
  ended(error: RtmError): void {
    // a leave asked for last is done; an enter or update is not
    const wanted = this.#wanted !== undefined;
    this.#wanted = undefined;
    this.#held = undefined;
    this.#sent = undefined;
    this.#settle(wanted ? error : undefined);
  }

  /** @internal an answer to a presence request; true when it was this channel's. */
  onAnswer(ref: unknown): boolean {
    const sent = this.#sent;
    if (!sent || ref !== sent.ref) return false;
    this.#sent = undefined;
    this.#held = sent.op === 'presence-leave' ? undefined : sent.data;
    this.#settle(undefined, sent.version);
    this.#sync();
    return true;
  }

  /** @internal an `error` frame; true when it refused this channel's presence request. */
  onError(ref: unknown, error: RtmError): boolean {
    const sent = this.#sent;
    if (!sent || ref !== sent.ref) return false;
    this.#sent = undefined;
    // refused: what the server holds stays, and is what this client has now
    this.#wanted = this.#held;
    this.#settle(error);
    return true;
  }

  // ---- internals ----

  #want(data: unknown): Promise<void> {
    let text: string;
    try {
      text = serialized(data);
    } catch (error) {
      return Promise.reject(new RtmError('invalid_request', `data must be JSON: ${(error as Error).message}`));
    }
    if (new TextEncoder().encode(text).length > PRESENCE_DATA_MAX) {
      return Promise.reject(new RtmError('payload_too_large', `data must be at most ${PRESENCE_DATA_MAX} bytes serialized`));
    }
    this.#wanted = text;
    this.#version++;
    return this.#wait();
  }

  #wait(): Promise<void> {
    const version = this.#version;
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ version, resolve, reject }));
    this.#sync();
    return done;
  }

  /** One request at a time toward the entry asked for; the waiters resolve once the server holds it. */
  #sync(): void {
    if (this.#sent) return;
    if (this.#wanted === this.#held) return this.#settle();
    if (!this.#channel?.live) {
      // nothing held and nothing wanted is settled without the server (a leave while offline)
      return;
    }
    const ref = this.#core.nextRef();
    const frame: Record<string, unknown> = { ref, channelId: this.#channelId };
    if (this.#wanted === undefined) {
      this.#sent = { ref, op: 'presence-leave', version: this.#version };
    } else {
      this.#sent = { ref, op: this.#held === undefined ? 'presence-enter' : 'presence-update', data: this.#wanted, version: this.#version };
      frame.data = JSON.parse(this.#wanted) as unknown;
    }
    this.#core.send({ op: this.#sent.op, ...frame });
  }

  /** Settles the waiters up to `version` (all without it): rejected with `error`, else resolved. */
  #settle(error?: RtmError, version = Number.POSITIVE_INFINITY): void {
    const waiters = this.#waiters.filter((waiter) => waiter.version <= version);
    this.#waiters = this.#waiters.filter((waiter) => waiter.version > version);
    for (const waiter of waiters) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }
}
