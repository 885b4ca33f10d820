/**
 * Which channel-node owns which partition, as the nodes announce it: each node publishes
 * `{node, partitions, ttlMs}` on the `owners` subject when its partitions change and every
 * OWNER_ANNOUNCE_MS, and at once when a gateway asks on `ownersQuery`. A gateway keeps the latest
 * announcement of each node for ttlMs and uses it only to bundle a turn's requests per node: it is
 * a hint, never the truth. A node that gets a part for a partition it no longer owns forwards it
 * to the partition's subject, so a stale entry costs a hop, not a message. Pure (no bus here).
 */

/** How often a channel-node repeats its announcement. */
export const OWNER_ANNOUNCE_MS = 5_000;
/** How long an announcement counts: three repeats missed and the node is forgotten. */
export const OWNER_TTL_MS = 3 * OWNER_ANNOUNCE_MS;

export interface OwnerAnnouncement {
  node: string;
  partitions: number[];
  ttlMs: number;
}

/** An announcement as it goes on the bus. */
export function ownerAnnouncement(node: string, partitions: Iterable<number>): OwnerAnnouncement {
  return { node, partitions: [...partitions].sort((a, b) => a - b), ttlMs: OWNER_TTL_MS };
}

export function isOwnerAnnouncement(value: unknown): value is OwnerAnnouncement {
  const v = value as Partial<OwnerAnnouncement> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.node === 'string' &&
    v.node.length > 0 &&
    v.node.length <= 256 &&
    Array.isArray(v.partitions) &&
    v.partitions.every((p) => Number.isInteger(p) && p >= 0 && p < 65_536) &&
    typeof v.ttlMs === 'number' &&
    v.ttlMs > 0
  );
}

export class OwnerDirectory {
  /** node → its partitions and when its announcement lapses. */
  readonly #nodes = new Map<string, { partitions: number[]; expiresAt: number }>();
  /** partition → node, rebuilt from #nodes when an announcement changes it. */
  #owner = new Map<number, string>();

  /**
   * Takes an announcement (anything malformed is ignored); the latest of each node wins. Returns
   * the other nodes that had announced a partition this one now claims: each of them gave it
   * back or died (a node that gives a partition back announces so first, so a claim that finds
   * the partition still under another node is what a death looks like).
   */
  apply(value: unknown, now: number): string[] {
    if (!isOwnerAnnouncement(value)) return [];
    const known = this.#nodes.get(value.node);
    // re-inserted, so the map's order is the order of the latest announcements
    this.#nodes.delete(value.node);
    this.#nodes.set(value.node, { partitions: value.partitions, expiresAt: now + value.ttlMs });
    if (known && known.partitions.join() === value.partitions.join()) return [];
    const movedFrom = new Set<string>();
    for (const partition of value.partitions) {
      const previous = this.#owner.get(partition);
      if (previous !== undefined && previous !== value.node) movedFrom.add(previous);
    }
    this.#rebuild();
    return [...movedFrom];
  }

  /** The node that last announced `partition`, while its announcement counts. */
  nodeOf(partition: number, now: number): string | undefined {
    const node = this.#owner.get(partition);
    if (node === undefined) return undefined;
    const entry = this.#nodes.get(node);
    if (entry && entry.expiresAt > now) return node;
    this.forget(node);
    return undefined;
  }

  /** Drops a node (its subject had no responders: it is gone). */
  forget(node: string): void {
    if (this.#nodes.delete(node)) this.#rebuild();
  }

  /** Drops `partition` from whatever node announced it (that node said it does not own it). */
  forgetPartition(partition: number): void {
    const node = this.#owner.get(partition);
    if (node === undefined) return;
    const entry = this.#nodes.get(node)!;
    entry.partitions = entry.partitions.filter((p) => p !== partition);
    this.#owner.delete(partition);
  }

  get size(): number {
    return this.#owner.size;
  }

  #rebuild(): void {
    const owner = new Map<number, string>();
    // two nodes claiming one partition (a move in progress): the later announcement wins
    for (const [node, entry] of this.#nodes) for (const partition of entry.partitions) owner.set(partition, node);
    this.#owner = owner;
  }
}
