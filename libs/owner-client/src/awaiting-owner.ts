/**
 * Commands refused for want of an owner (NoResponders: nobody subscribes to their partition,
 * or a node answered NOT_DELIVERED), waiting out their back-off (ask-owner.ts), per partition.
 * When a node announces the partition, they are told at once (`ReplyWaiter.ownerAnnounced`) and
 * go again then, rather than when their back-off ends: after a node dies, its partitions' commands
 * reach the next owner as soon as it announces them. Waiters are told in the order they were
 * parked, so a partition's commands go again in their order. Pure (no bus, no timers).
 *
 * Bounded without help from the waiters: a waiter is dropped once told, and one whose deadline
 * passed is pruned whenever the count has doubled since the last pruning (when no node announces
 * a partition for a long time, every command refused meanwhile would otherwise stay).
 */

/** What a parked command's waiter is told. */
export interface OwnerWaiter {
  ownerAnnounced?(): void;
}

export class AwaitingOwner {
  /** Per partition, its waiters (in the order parked) and their deadlines. */
  readonly #byPartition = new Map<number, Map<OwnerWaiter, number>>();
  #count = 0;
  #prunedAt = 0;

  /** `waiter` was refused for `partition` and waits for an owner until `deadline` (epoch ms). */
  park(partition: number, waiter: OwnerWaiter, deadline: number, now: number): void {
    if (!waiter.ownerAnnounced) return;
    let waiters = this.#byPartition.get(partition);
    if (!waiters) this.#byPartition.set(partition, (waiters = new Map()));
    if (!waiters.has(waiter)) this.#count++;
    // parked again (refused again): its place in the order stays
    waiters.set(waiter, deadline);
    if (this.#count >= 2 * this.#prunedAt + 64) this.#prune(now);
  }

  /** A node announced `partitions`: their waiters are told, in the order parked, and dropped. */
  announced(partitions: Iterable<number>, now: number): void {
    for (const partition of partitions) {
      const waiters = this.#byPartition.get(partition);
      if (!waiters) continue;
      this.#byPartition.delete(partition);
      this.#count -= waiters.size;
      for (const [waiter, deadline] of waiters) if (deadline > now) waiter.ownerAnnounced!();
    }
  }

  /** How many waiters are parked. */
  get size(): number {
    return this.#count;
  }

  #prune(now: number): void {
    for (const [partition, waiters] of this.#byPartition) {
      for (const [waiter, deadline] of waiters) if (deadline <= now) waiters.delete(waiter);
      if (waiters.size === 0) this.#byPartition.delete(partition);
    }
    let count = 0;
    for (const waiters of this.#byPartition.values()) count += waiters.size;
    this.#count = count;
    this.#prunedAt = count;
  }
}
