/**
 * This node's own subject: bundles of several partitions' requests from a gateway
 * (libs/bus node-bundle.ts), answered with one bundle reply, and the announcements that tell
 * gateways which partitions to bundle here (libs/bus owner-directory.ts).
 *
 * Each part is handled as if it had come on its partition's subject:
 * - a partition whose actor runs here: the part enters that actor (PartitionActor.handle), in the
 *   order the bundle holds it and in arrival order with the partition subject's own requests
 *   (both come through this process's one bus connection, handled one message at a time);
 * - any other partition (moved, draining, never here): the part is forwarded to the partition's
 *   subject, where its owner answers it; no owner: NOT_DELIVERED (nothing was done); no answer
 *   in time: TIMED_OUT (outcome unknown). A gateway's directory may be a few seconds stale: a
 *   stale entry costs this hop, never the command.
 * The reply leaves once every part has its answer. An empty message asks whether this node is
 * there, and is answered at once with an empty one (libs/bus node-bundle.ts).
 */
import type { Counter } from 'prom-client';
import {
  PART_STATUS,
  Requester,
  deadlineHeaders,
  deadlineOf,
  decodeBundle,
  encodeBundleReply,
  encodeJson,
  isNoResponders,
  isNodeProbe,
  NODE_PROBE,
  ownerAnnouncement,
  OWNER_ANNOUNCE_MS,
  type Msg,
  type NatsConnection,
  type ReplyPart,
  type Subjects,
  type Subscription,
} from '@rtm/bus';
import type { CommandReply } from '@rtm/schemas';

/** What the inbox needs of a partition actor. */
export interface PartHandler {
  readonly running: boolean;
  handle(data: Uint8Array, expiresAt: number | undefined, send: (reply: CommandReply | CommandReply[]) => void): void;
}

export interface NodeInboxDeps {
  nc: NatsConnection;
  subjects: Subjects;
  /** This node's name: its subject and what it announces. */
  node: string;
  /** The actor of `partition` on this node, if any. */
  actorOf: (partition: number) => PartHandler | undefined;
  /** The partitions whose actors run here now. */
  owned: () => Iterable<number>;
  /** Bundle parts by route: `local` (an actor here) or `forwarded`. */
  parts: Counter<'route'>;
}

/** A forwarded part's wait when the bundle carried no deadline. */
const FORWARD_TIMEOUT_MS = 5_000;

export class NodeInbox {
  readonly #deps: NodeInboxDeps;
  readonly #requester: Requester;
  #subscriptions: Subscription[] = [];
  #timer: NodeJS.Timeout | undefined;
  #announcePlanned = false;
  /** Forwards waiting for their answer: stop() waits for them (each is bounded by its deadline). */
  readonly #forwards = new Set<Promise<void>>();

  constructor(deps: NodeInboxDeps) {
    this.#deps = deps;
    this.#requester = new Requester(deps.nc);
  }

  start(): void {
    const { nc, subjects, node } = this.#deps;
    this.#subscriptions = [
      nc.subscribe(subjects.node(node), { callback: (error, msg) => error || this.#bundle(msg) }),
      nc.subscribe(subjects.ownersQuery, { callback: (error) => error || this.announceSoon() }),
    ];
    this.#timer = setInterval(() => this.announceSoon(), OWNER_ANNOUNCE_MS);
    this.#timer.unref();
    this.announceSoon();
  }

  /** Announces this node's partitions at the end of this turn (many changes, one announcement). */
  announceSoon(): void {
    if (this.#announcePlanned) return;
    this.#announcePlanned = true;
    setImmediate(() => {
      this.#announcePlanned = false;
      try {
        this.#deps.nc.publish(this.#deps.subjects.owners, encodeJson(ownerAnnouncement(this.#deps.node, this.#deps.owned())));
      } catch {
        // closing: gateways forget this node when its announcement lapses
      }
    });
  }

  /** Stops taking bundles: what was received is still answered. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all(this.#subscriptions.map((s) => s.drain().catch(() => {})));
    await Promise.all(this.#forwards);
    this.#requester.close();
  }

  #bundle(msg: Msg): void {
    // a gateway asking whether this node is still there (node-bundle.ts)
    if (isNodeProbe(msg.data)) return respond(msg, NODE_PROBE);
    let parts;
    try {
      parts = decodeBundle(msg.data);
    } catch (error) {
      return respond(msg, encodeJson({ ok: false, code: 'invalid_request', reason: (error as Error).message }));
    }
    const expiresAt = deadlineOf(msg, Date.now());
    const replies = new Array<ReplyPart | undefined>(parts.length);
    let missing = parts.length;
    const fill = (index: number, part: ReplyPart) => {
      if (replies[index] !== undefined) return;
      replies[index] = part;
      if (--missing === 0) respond(msg, encodeBundleReply(replies as ReplyPart[]));
    };
    parts.forEach((part, index) => {
      const actor = this.#deps.actorOf(part.partition);
      if (actor?.running) {
        this.#deps.parts.inc({ route: 'local' });
        actor.handle(part.data, expiresAt, (reply) => fill(index, { status: PART_STATUS.ANSWERED, data: encodeJson(reply) }));
        return;
      }
      this.#deps.parts.inc({ route: 'forwarded' });
      this.#forward(part.partition, part.data, expiresAt, (reply) => fill(index, reply));
    });
  }

  #forward(partition: number, data: Uint8Array, expiresAt: number | undefined, done: (reply: ReplyPart) => void): void {
    const remaining = expiresAt === undefined ? FORWARD_TIMEOUT_MS : expiresAt - Date.now();
    if (remaining <= 0) return done({ status: PART_STATUS.NOT_DELIVERED, data: new Uint8Array(0) });
    const forward = this.#requester
      .request(this.#deps.subjects.partition(partition), data, { timeoutMs: remaining, headers: deadlineHeaders(remaining) })
      .then(
        (reply) => done({ status: PART_STATUS.ANSWERED, data: reply.data }),
        (error: unknown) => done({ status: isNoResponders(error) ? PART_STATUS.NOT_DELIVERED : PART_STATUS.TIMED_OUT, data: new Uint8Array(0) }),
      )
      .finally(() => this.#forwards.delete(forward));
    this.#forwards.add(forward);
  }
}

function respond(msg: Msg, data: Uint8Array): void {
  try {
    msg.respond(data);
  } catch {
    // the connection is closing; the gateway times out and answers 503
  }
}
