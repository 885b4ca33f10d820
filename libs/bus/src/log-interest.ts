/**
 * Who listens to which environment's live log, so that the processes publishing to it build and
 * send its events only while someone does (a dispatcher's attempts, a channel owner's commits:
 * otherwise a few microseconds of work per delivery and per message that nobody reads).
 *
 * Listeners (the gateways holding logs sockets: LogListeners) announce the environments they hold
 * a socket of on `logInterest`, a JSON array of environment ids: at once when the first socket of
 * an environment goes live, and all of them every ANNOUNCE_MS. A publisher that watches
 * (watchLogInterest) keeps each announced environment for KEPT_MS (three announcements: two lost
 * ones change nothing), and `publishLog`, `publishLogs` and `logListened` skip the others. A
 * publisher that has just started asks every listener to announce at once (`logInterestAsk`: the
 * answers take milliseconds) and, for STARTING_MS, counts every environment as listened. A process
 * that does not watch (tools, tests) publishes every event, as before.
 *
 * Ordering: a gateway publishes the announcement and then flushes (the bus server has routed it)
 * before it tells the socket `ready`; every publisher reads its one bus connection in order, so
 * whatever is done after `ready` (a publish, a delivery's notice) reaches a publisher after the
 * announcement did, and its events are sent. What can be missed: the events of a publisher that
 * was disconnected from the bus when a new listener was announced, until the next announcement
 * (at most ANNOUNCE_MS): a live log is a tail, not a record.
 */
import type { NatsConnection, Subscription } from 'nats';
import type { Subjects } from './subjects.ts';

/** How often a listener announces every environment it holds a logs socket of. */
export const ANNOUNCE_MS = 10_000;
/** How long a publisher counts an environment as listened after an announcement of it. */
export const KEPT_MS = 3 * ANNOUNCE_MS;
/** How long a publisher that just started counts every environment as listened (the answers to its ask). */
export const STARTING_MS = 3_000;
/** Environment ids per announcement message. */
const IDS_PER_MESSAGE = 1_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function announce(nc: NatsConnection, subjects: Subjects, environments: readonly string[]): void {
  for (let at = 0; at < environments.length; at += IDS_PER_MESSAGE) {
    try {
      nc.publish(subjects.logInterest, encoder.encode(JSON.stringify(environments.slice(at, at + IDS_PER_MESSAGE))));
    } catch {
      return; // the connection is closing: nothing to announce to
    }
  }
}

/** The environments a publisher has heard announced, each until it lapses (pure: no bus). */
export class LogInterestTable {
  readonly #until = new Map<string, number>();
  readonly #everyUntil: number;

  /** `now`: when the publisher started; every environment counts as listened for STARTING_MS from then. */
  constructor(now: number) {
    this.#everyUntil = now + STARTING_MS;
  }

  heard(environments: readonly string[], now: number): void {
    const until = now + KEPT_MS;
    for (const environmentId of environments) this.#until.set(environmentId, until);
  }

  listened(environmentId: string, now: number): boolean {
    if (now < this.#everyUntil) return true;
    const until = this.#until.get(environmentId);
    if (until === undefined) return false;
    if (until > now) return true;
    this.#until.delete(environmentId);
    return false;
  }

  /** Forgets what lapsed (called every ANNOUNCE_MS: environments asked about no more stay otherwise). */
  prune(now: number): void {
    for (const [environmentId, until] of this.#until) if (until <= now) this.#until.delete(environmentId);
  }
}

/** A publisher's view of who listens (see the file's header). */
export class LogInterest {
  readonly #table: LogInterestTable;
  readonly #subscription: Subscription;
  readonly #timer: NodeJS.Timeout;

  constructor(nc: NatsConnection, subjects: Subjects) {
    this.#table = new LogInterestTable(Date.now());
    this.#subscription = nc.subscribe(subjects.logInterest, {
      callback: (error, msg) => {
        if (error) return;
        try {
          const environments = JSON.parse(decoder.decode(msg.data)) as unknown;
          if (Array.isArray(environments))
            this.#table.heard(
              environments.filter((id): id is string => typeof id === 'string'),
              Date.now(),
            );
        } catch {
          // not an announcement: ignored
        }
      },
    });
    this.#timer = setInterval(() => this.#table.prune(Date.now()), ANNOUNCE_MS);
    this.#timer.unref();
    try {
      nc.publish(subjects.logInterestAsk);
    } catch {
      // closing: the first announcements come with the period
    }
  }

  listened(environmentId: string): boolean {
    return this.#table.listened(environmentId, Date.now());
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#subscription.unsubscribe();
  }
}

const watching = new WeakMap<NatsConnection, LogInterest>();

/** From now on this connection's live-log events go only to environments someone listens to. */
export function watchLogInterest(nc: NatsConnection, subjects: Subjects): LogInterest {
  let interest = watching.get(nc);
  if (!interest) {
    interest = new LogInterest(nc, subjects);
    watching.set(nc, interest);
  }
  return interest;
}

/** Stops watching (the process stops): this connection's events go everywhere again. */
export function stopWatchingLogInterest(nc: NatsConnection): void {
  watching.get(nc)?.stop();
  watching.delete(nc);
}

/** Whether events of `environmentId` published on `nc` may reach anyone (always, where nobody watches). */
export function logListened(nc: NatsConnection, environmentId: string): boolean {
  return watching.get(nc)?.listened(environmentId) ?? true;
}

/** A gateway's side: the environments it holds logs sockets of, announced (see the file's header). */
export class LogListeners {
  readonly #nc: NatsConnection;
  readonly #subjects: Subjects;
  readonly #sockets = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #asks: Subscription | undefined;

  constructor(nc: NatsConnection, subjects: Subjects) {
    this.#nc = nc;
    this.#subjects = subjects;
  }

  start(): void {
    this.#timer = setInterval(() => this.#announceAll(), ANNOUNCE_MS);
    this.#timer.unref();
    this.#asks = this.#nc.subscribe(this.#subjects.logInterestAsk, { callback: () => this.#announceAll() });
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#asks?.unsubscribe();
  }

  /**
   * A logs socket of `environmentId` is about to go live: announced at once when it is the first
   * (the caller flushes the connection before telling the socket `ready`).
   */
  opened(environmentId: string): void {
    const sockets = this.#sockets.get(environmentId) ?? 0;
    this.#sockets.set(environmentId, sockets + 1);
    if (sockets === 0) announce(this.#nc, this.#subjects, [environmentId]);
  }

  /** A socket `opened` before closed (the announcements of its environment stop with its last). */
  closed(environmentId: string): void {
    const sockets = (this.#sockets.get(environmentId) ?? 0) - 1;
    if (sockets > 0) this.#sockets.set(environmentId, sockets);
    else this.#sockets.delete(environmentId);
  }

  #announceAll(): void {
    if (this.#sockets.size > 0) announce(this.#nc, this.#subjects, [...this.#sockets.keys()]);
  }
}
