/**
 * Commands on their way to partition owners, gathered per event-loop turn: the commands that
 * start in one turn and go to the same partition subject leave as ONE bus request (a framed
 * request of several encoded commands, libs/schemas command-codec.ts; the owner answers one array
 * of replies, see apps/channel-node/src/command-request.ts), and all
 * of the turn's requests leave in one socket write. Why: on these machines a socket write and a
 * bus message each cost more than the work of a small command, and under load many commands for
 * one partition start in the same turn (a batch publish always does).
 *
 * Guarantees:
 * - each command gets its own reply, or the error of the request that carried it (NoResponders:
 *   not delivered, the caller may retry; Timeout or a lost connection: outcome unknown);
 * - commands keep their order within a subject (one request, or several sent in order on one
 *   connection, which the bus keeps in order);
 * - a request carries at most MAX_PER_REQUEST commands and stays under the server's message
 *   size limit; a lone command travels as a request of one (answered by one reply, no array);
 * - a request waits for the earliest deadline among its commands;
 * - a command its owner answers late on purpose (`deferred`: a reaction, held by the owner until
 *   its message's next summary, up to 250 ms) never shares a request or a bundle with one it
 *   answers at its commit: a reply leaves only once every command it carries is answered, so a
 *   publish that travelled with a reaction waited for the reaction's summary. Deferred commands
 *   go in requests and bundles of their own, at once (never held back by the linger below).
 *
 * Requests of one turn for partitions that the same channel-node owns (as the nodes announce it,
 * libs/bus owner-directory.ts) leave as ONE bundle to that node's subject and come back as one
 * reply (libs/bus node-bundle.ts): over many channels a turn holds a few commands for each of
 * many partitions, and one bus message per node instead of one per partition is what the owner
 * and the bus then handle. The directory is a hint: a node forwards a part for a partition it no
 * longer owns, and answers NOT_DELIVERED when nobody owns it (the same as NoResponders here).
 *
 * Under load a node's bundle may wait a moment for the next turns' commands (`linger`: libs/ops
 * linger.ts): when a turn holds fewer than `fill` commands for a node while commands for it
 * arrive fast, they are held (a timer of at most `maxMs`) and go with what the following turns
 * add, as soon as `fill` are held or the wait ends. At rest nothing waits. A partition's commands
 * held for a node keep going to that node until they left, whatever the directory says
 * meanwhile, so they keep their order.
 *
 * A node that dies with bundles in flight (node-departures.ts: its subject has no responders,
 * found by the next bundle for it or by asking it when another node claims one of its
 * partitions) is forgotten, and its commands are put back at the head of the next turn, in
 * the order they left: first those in flight (each told OwnerLostError; ask-owner.ts sends a
 * repeatable one again), then those held for it, then the turn's own. So a partition's
 * commands still reach their next owner in the order they were first sent. Commands refused for
 * want of an owner (NoResponders, NOT_DELIVERED) are told when a node announces their partition
 * (awaiting-owner.ts), and go again then rather than at the end of their back-off.
 */
import type { Counter } from 'prom-client';
import { ErrorCode, NatsError } from 'nats';
import {
  PART_STATUS,
  decodeBundleReply,
  deadlineHeaders,
  decodeJson,
  encodeBundle,
  isNoResponders,
  isOwnerAnnouncement,
  OwnerDirectory,
  type Msg,
  type NatsConnection,
  type Requester,
  type Subjects,
  type Subscription,
} from '@rtm/bus';
import { frameRequest } from '@rtm/schemas';
import { ArrivalRate, lingerMs, type LingerOptions } from '@rtm/ops';
import { NodeDepartures, OwnerLostError, type Flight } from './node-departures.ts';
import { AwaitingOwner } from './awaiting-owner.ts';
import { MAX_PER_REQUEST, packBundles, packRequests } from './packing.ts';
import { append, rejectAll, settle, type Entry, type ReplyWaiter, type Unit } from './batch-units.ts';

export type { ReplyWaiter } from './batch-units.ts';

export { MAX_PER_REQUEST, packRequests, packBundles } from './packing.ts';
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** The connection was lost with the request in flight (outcome unknown). */
export { ConnectionLostError } from '@rtm/bus';
/** The node that held the command left before answering (outcome unknown). */
export { OwnerLostError } from './node-departures.ts';

/** The deadline passed before the request could leave: nothing was sent. */
export class NotSentError extends Error {
  override name = 'NotSentError';
}

export interface OwnerBatcherDeps {
  nc: NatsConnection;
  requester: Requester;
  subjects: Subjects;
  /** Bus requests to owners by route: `partition` (a partition's subject) or `node` (a bundle). */
  requests: Counter<'route'>;
  /** How a node's bundle waits for more commands under load (default: it never waits). */
  linger?: LingerOptions;
  /** Bundles held back, by how the wait ended: `filled` or `timed_out`. */
  lingered?: Counter<'end'>;
}

/** A node's commands held back for the following turns (see the header). */
interface Held {
  entries: Entry[];
  timer: NodeJS.Timeout;
}

export class OwnerBatcher {
  readonly #deps: OwnerBatcherDeps;
  readonly #directory = new OwnerDirectory();
  #subscription: Subscription | undefined;
  #turn: Entry[] = [];
  #flushPlanned = false;
  /** Bundles in flight per node, and the probes of nodes that may have died. */
  readonly #departures: NodeDepartures<Unit[]>;
  /** Commands refused for want of an owner, per partition, until a node announces it. */
  readonly #awaiting = new AwaitingOwner();
  /** Per node, its commands held back, and for each partition with commands held, their node. */
  readonly #held = new Map<string, Held>();
  readonly #heldFor = new Map<number, string>();
  /** Per node, its commands per millisecond recently (the linger's measure of load). */
  readonly #rates = new Map<string, ArrivalRate>();

  constructor(deps: OwnerBatcherDeps) {
    this.#deps = deps;
    this.#departures = new NodeDepartures({ requester: deps.requester, subjects: deps.subjects, gone: (node) => this.#nodeGone(node) });
  }

  /** Listens to the channel-nodes' announcements and asks for them at once. */
  start(): void {
    const { nc, subjects } = this.#deps;
    this.#subscription = nc.subscribe(subjects.owners, {
      callback: (error, msg) => {
        if (error) return;
        let announcement: unknown;
        try {
          announcement = decodeJson(msg.data);
        } catch {
          // not JSON: ignored, as any malformed announcement
          return;
        }
        if (!isOwnerAnnouncement(announcement)) return;
        const now = Date.now();
        // another node claims their partitions: gone, or giving back? (node-departures.ts)
        for (const node of this.#directory.apply(announcement, now)) this.#departures.probe(node, this.#held.has(node));
        this.#awaiting.announced(announcement.partitions, now);
      },
    });
    nc.publish(subjects.ownersQuery);
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
    for (const node of [...this.#held.keys()]) this.#release(node, 'timed_out');
  }

  /**
   * Sends `command` (one, encoded, for `partition`) in this turn's request for the partition;
   * `waiter` is told the reply or the error. `deferred`: its owner answers it late on purpose
   * (a reaction): it goes in this turn's requests of such commands (see the header).
   */
  submit(partition: number, command: Uint8Array, deadline: number, waiter: ReplyWaiter, deferred = false): void {
    this.#turn.push({ partition, command, deadline, waiter, deferred });
    this.#flushSoon();
  }

  #flushSoon(): void {
    if (this.#flushPlanned) return;
    this.#flushPlanned = true;
    // the check phase of this turn: every command whose HTTP body arrived in this poll phase
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushPlanned = false;
    const turn = this.#turn;
    this.#turn = [];
    const now = Date.now();
    const direct = new Map<number, Entry[]>();
    const byNode = new Map<string, Entry[]>();
    // deferred commands apart: their own requests and bundles (see the header)
    const deferredDirect = new Map<number, Entry[]>();
    const deferredByNode = new Map<string, Entry[]>();
    for (const entry of turn) {
      // while the directory names a node for a partition, everything for it goes by that node,
      // even alone: two routes to one owner could overtake each other if the node had to forward
      const node = this.#heldFor.get(entry.partition) ?? this.#directory.nodeOf(entry.partition, now);
      if (node === undefined) append(entry.deferred ? deferredDirect : direct, entry.partition, entry);
      else append(entry.deferred ? deferredByNode : byNode, node, entry);
    }
    const maxBytes = this.#maxBytes();
    for (const map of [direct, deferredDirect]) {
      for (const [partition, entries] of map) for (const unit of this.#units(partition, entries, maxBytes)) this.#toPartition(unit);
    }
    for (const [node, entries] of byNode) this.#toNodeSoon(node, entries);
    for (const [node, entries] of deferredByNode) this.#sendToNode(node, entries);
  }

  /** The largest request or bundle: the server's limit, less room for the protocol line and headers. */
  #maxBytes(): number {
    return Math.max(64 * 1024, (this.#deps.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) - 4096);
  }

  /** One partition's commands (in order) as requests. */
  #units(partition: number, entries: readonly Entry[], maxBytes: number): Unit[] {
    return packRequests(entries, maxBytes, MAX_PER_REQUEST).map((request) => ({
      partition,
      entries: request,
      payload: frameRequest(request.map((e) => e.command)),
      deadline: Math.min(...request.map((e) => e.deadline)),
    }));
  }

  /** A turn's commands for `node`: sent now, or held with those already held (see the header). */
  #toNodeSoon(node: string, entries: Entry[]): void {
    const linger = this.#deps.linger;
    if (!linger) return this.#sendToNode(node, entries);
    const at = performance.now();
    let rate = this.#rates.get(node);
    if (!rate) {
      if (this.#rates.size >= 1_000) this.#rates.clear();
      this.#rates.set(node, (rate = new ArrivalRate()));
    }
    rate.add(entries.length, at);
    const held = this.#held.get(node);
    if (held) {
      held.entries.push(...entries);
      for (const entry of entries) this.#heldFor.set(entry.partition, node);
      if (held.entries.length >= linger.fill) this.#release(node, 'filled');
      return;
    }
    const wait = lingerMs(entries.length, rate.perMs(at), linger);
    if (wait <= 0) return this.#sendToNode(node, entries);
    for (const entry of entries) this.#heldFor.set(entry.partition, node);
    this.#held.set(node, { entries, timer: setTimeout(() => this.#release(node, 'timed_out'), Math.max(1, Math.ceil(wait))) });
  }

  /** Sends what is held for `node`. */
  #release(node: string, end: 'filled' | 'timed_out'): void {
    const held = this.#held.get(node);
    if (!held) return;
    clearTimeout(held.timer);
    this.#held.delete(node);
    for (const entry of held.entries) if (this.#heldFor.get(entry.partition) === node) this.#heldFor.delete(entry.partition);
    this.#deps.lingered?.inc({ end });
    this.#sendToNode(node, held.entries);
  }

  /** `node`'s commands (in order) as one bundle, or several if they are too large for one. */
  #sendToNode(node: string, entries: readonly Entry[]): void {
    const byPartition = new Map<number, Entry[]>();
    for (const entry of entries) append(byPartition, entry.partition, entry);
    const maxBytes = this.#maxBytes();
    const units = [...byPartition].flatMap(([partition, list]) => this.#units(partition, list, maxBytes));
    for (const bundle of packBundles(units, maxBytes)) this.#toNode(node, bundle);
  }

  #toPartition(unit: Unit): void {
    this.#deps.requests.inc({ route: 'partition' });
    this.#request(this.#deps.subjects.partition(unit.partition), unit.payload, unit.deadline, [unit], (msg) => {
      settle(unit, msg.data);
    });
  }

  #toNode(node: string, units: Unit[]): void {
    this.#deps.requests.inc({ route: 'node' });
    const payload = encodeBundle(units.map((unit) => ({ partition: unit.partition, data: unit.payload })));
    const deadline = Math.min(...units.map((unit) => unit.deadline));
    this.#request(
      this.#deps.subjects.node(node),
      payload,
      deadline,
      units,
      (msg) => {
        let parts;
        try {
          parts = decodeBundleReply(msg.data);
          if (parts.length !== units.length) throw new Error('bundle reply count does not match');
        } catch (error) {
          return rejectAll(units, error);
        }
        parts.forEach((part, i) => {
          const unit = units[i]!;
          if (part.status === PART_STATUS.ANSWERED) return settle(unit, part.data);
          if (part.status === PART_STATUS.NOT_DELIVERED) {
            // nobody owns it now: nothing was done, and this node no longer owns it either
            this.#directory.forgetPartition(unit.partition);
            return this.#refused([unit], NatsError.errorForCode(ErrorCode.NoResponders));
          }
          for (const entry of unit.entries) entry.waiter.fail(NatsError.errorForCode(ErrorCode.Timeout));
        });
      },
      (error) => {
        if (isNoResponders(error)) this.#nodeGone(node);
      },
      node,
    );
  }

  /**
   * `node` is gone (its subject has no responders): its partitions go by their own subjects until
   * their next owner announces them, and its commands go again at the head of the next turn (see
   * the header): in flight first, then held.
   */
  #nodeGone(node: string): void {
    this.#directory.forget(node);
    const lost = this.#departures.take(node);
    const held = this.#held.get(node);
    if (held) {
      clearTimeout(held.timer);
      this.#held.delete(node);
      for (const entry of held.entries) if (this.#heldFor.get(entry.partition) === node) this.#heldFor.delete(entry.partition);
    }
    if (lost.length === 0 && !held) return;
    const queued = this.#turn;
    this.#turn = [];
    // a repeatable command is submitted again from its waiter, into the fresh turn
    const error = new OwnerLostError('the channel-node holding the command is gone');
    for (const units of lost) rejectAll(units, error);
    this.#turn.push(...(held?.entries ?? []), ...queued);
    if (this.#turn.length > 0) this.#flushSoon();
  }

  /**
   * One bus request carrying `units`; `answered` settles them from the reply. A failure of the
   * request (NoResponders, Timeout, the connection lost: Requester) rejects every command it carried.
   */
  #request(
    subject: string,
    payload: Uint8Array,
    deadline: number,
    units: Unit[],
    answered: (msg: Msg) => void,
    failed?: (error: unknown) => void,
    node?: string,
  ): void {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return rejectAll(units, new NotSentError('the deadline passed before the command left'));
    // a bundle is tracked until it ends, in case its node dies meanwhile
    const flight: Flight<Unit[]> | undefined = node === undefined ? undefined : this.#departures.open(node, units);
    const token = this.#deps.requester.send(subject, payload, { timeoutMs: remaining, headers: deadlineHeaders(remaining) }, (error, msg) => {
      if (flight) this.#departures.close(flight);
      if (!error) return answered(msg!);
      failed?.(error);
      if (isNoResponders(error)) this.#refused(units, error);
      else rejectAll(units, error);
    });
    if (flight) flight.token = token;
  }

  /** Not delivered (no owner): each command is told so, and told again when a node announces its partition. */
  #refused(units: readonly Unit[], error: unknown): void {
    const now = Date.now();
    for (const unit of units) {
      for (const entry of unit.entries) {
        entry.waiter.fail(error);
        this.#awaiting.park(unit.partition, entry.waiter, entry.deadline, now);
      }
    }
  }
}
