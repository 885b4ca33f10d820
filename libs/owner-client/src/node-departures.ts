/**
 * Channel-nodes that leave with requests in flight. A node killed (kill -9) never answers the
 * bundles it had received; without this, their commands wait out OWNER_TIMEOUT_MS. The signals,
 * both of which a death gives within about one rebalance interval:
 * - **the node's departure**: a request to its own subject answered "no responders" (its bus
 *   connection is gone, and with it its subscription);
 * - **a directory change**: another node announces a partition the directory still had under
 *   this one (libs/bus owner-directory.ts `apply`). A node that gives a partition back announces
 *   so first, so this is what a death looks like; but a node whose lock connection broke is
 *   still alive and still answers what it took. So the change is not taken as a death: the node
 *   is asked (an empty message, libs/bus node-bundle.ts NODE_PROBE) and only "no responders"
 *   counts.
 * Either way the requests in flight to the node are abandoned (a reply that still came would
 * be dropped) and their commands handed back, in the order they left, to be told OwnerLostError
 * (ask-owner.ts: a repeatable command is sent again at once, any other answered 503, outcome
 * unknown).
 *
 * Why "no responders" means the requests are lost: the bus server handles one connection's
 * messages in order and drops its subscriptions only when the connection closes, after anything
 * the node had sent; so any reply the node sent reaches the gateway before a "no responders"
 * the server gives for a later request. (A node only reconnecting to another bus server looks
 * the same for that moment: its non-repeatable commands are then answered 503, outcome unknown,
 * even if its answer comes later.)
 */
import { isNoResponders, NODE_PROBE, type Requester, type Subjects } from '@rtm/bus';

/** How long a probe waits for the node (a node that does not answer in time is not taken as gone). */
export const PROBE_TIMEOUT_MS = 2_000;

/** The channel-node that held the command left (its bus connection closed) before answering: the outcome is unknown. */
export class OwnerLostError extends Error {
  override name = 'OwnerLostError';
}

/** One request to a node, waiting for its reply. */
export interface Flight<T> {
  readonly node: string;
  readonly item: T;
  /** The requester's token (Requester.send), to abandon it. */
  token: string | undefined;
}

export interface NodeDeparturesDeps {
  requester: Requester;
  subjects: Subjects;
  /** `node` answered a probe with no responders: it is gone. */
  gone: (node: string) => void;
}

/** The requests in flight to each node, and the probes of nodes that may have left. */
export class NodeDepartures<T> {
  readonly #deps: NodeDeparturesDeps;
  /** Per node, its requests in flight in the order they left (a Set keeps insertion order). */
  readonly #flights = new Map<string, Set<Flight<T>>>();
  readonly #probing = new Set<string>();

  constructor(deps: NodeDeparturesDeps) {
    this.#deps = deps;
  }

  /** A request carrying `item` leaves for `node`; `close` it when it ends. */
  open(node: string, item: T): Flight<T> {
    const flight: Flight<T> = { node, item, token: undefined };
    let flights = this.#flights.get(node);
    if (!flights) this.#flights.set(node, (flights = new Set()));
    flights.add(flight);
    return flight;
  }

  /** The request ended (answered, failed, or timed out). */
  close(flight: Flight<T>): void {
    const flights = this.#flights.get(flight.node);
    if (flights?.delete(flight) && flights.size === 0) this.#flights.delete(flight.node);
  }

  /** How many requests wait for `node`. */
  waiting(node: string): number {
    return this.#flights.get(node)?.size ?? 0;
  }

  /**
   * Another node claimed a partition of `node`: when something waits for `node` (`waits`: its
   * requests in flight, or what the caller holds for it), asks whether it is still there, one
   * probe at a time; "no responders" calls `gone`.
   */
  probe(node: string, waits: boolean): void {
    if (this.#probing.has(node) || !(waits || this.waiting(node) > 0)) return;
    this.#probing.add(node);
    this.#deps.requester.send(this.#deps.subjects.node(node), NODE_PROBE, { timeoutMs: PROBE_TIMEOUT_MS }, (error) => {
      this.#probing.delete(node);
      if (error && isNoResponders(error)) this.#deps.gone(node);
    });
  }

  /** `node` is gone: its requests in flight are abandoned, and what they carried returned in the order they left. */
  take(node: string): T[] {
    const flights = this.#flights.get(node);
    if (!flights) return [];
    this.#flights.delete(node);
    const items: T[] = [];
    for (const flight of flights) {
      if (flight.token !== undefined) this.#deps.requester.abandon(flight.token);
      items.push(flight.item);
    }
    return items;
  }
}
