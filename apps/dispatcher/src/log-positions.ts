/**
 * Where the owner stands in the delivery log of each partition it owns (docs/webhooks.md, "The
 * delivery log"), in memory; no Postgres here (push-intake.ts reads and writes).
 *
 * - `scanned`: every row of the partition below it has been seen by this owner: in a notice, or
 *   by a read of the log (whose rows without a durable outcome it queued). The next read starts
 *   there, so each row is read about once.
 * - the deliveries of the log this owner holds without a durable outcome yet (`track` … `done`),
 *   with their positions.
 * - the position to store: the lesser of `scanned` and the least position held. Every row below
 *   it has a durable outcome (an outcome row or a ledger row) or was rolled back, so a next owner
 *   that reads from there misses nothing.
 *
 * A delivery let go without a durable outcome (handed over, its send failed before a record)
 * moves `scanned` back to its position (`forget`), so the next read finds it again.
 */
export class LogPositions {
  readonly #scanned = new Map<number, bigint>();
  /** Per partition, the deliveries held: id → position. */
  readonly #held = new Map<number, Map<string, bigint>>();
  /** Each held delivery's partition. */
  readonly #partitionOf = new Map<string, number>();
  /** While a read of the log is out (`watch`): the deliveries whose outcomes became durable meanwhile. */
  #doneDuringRead: Set<string> | undefined;

  /** Starts a partition at the position stored for it. */
  open(partition: number, position: string): void {
    this.#scanned.set(partition, BigInt(position));
    this.#held.set(partition, new Map());
  }

  /** Stops keeping a partition (given back): what it held is the next owner's to find. */
  close(partition: number): void {
    for (const id of this.#held.get(partition)?.keys() ?? []) this.#partitionOf.delete(id);
    this.#held.delete(partition);
    this.#scanned.delete(partition);
  }

  owns(partition: number): boolean {
    return this.#scanned.has(partition);
  }

  /** Where the next read of the partition starts (xid8 as text). */
  scanned(partition: number): string | undefined {
    return this.#scanned.get(partition)?.toString();
  }

  /** A read saw every row below `below` (after its rows were tracked). */
  scannedTo(partition: number, below: string): void {
    const current = this.#scanned.get(partition);
    if (current !== undefined && BigInt(below) > current) this.#scanned.set(partition, BigInt(below));
  }

  /** A delivery of the log is held here (queued or being sent). False for a partition not open. */
  track(id: string, partition: number, tx: string): boolean {
    const held = this.#held.get(partition);
    if (!held) return false;
    held.set(id, BigInt(tx));
    this.#partitionOf.set(id, partition);
    return true;
  }

  /** Whether `id` is a delivery of the log held here. */
  holds(id: string): boolean {
    return this.#partitionOf.has(id);
  }

  /**
   * A read of the log starts: what becomes durable from now on is remembered until `unwatch`, so a
   * row the read returned as still without an outcome, whose outcome was written while the read
   * was out, is not taken for one whose notice was lost (and sent again).
   */
  watch(): void {
    this.#doneDuringRead = new Set();
  }

  /** Whether `id`'s outcome became durable since `watch`. */
  doneDuringRead(id: string): boolean {
    return this.#doneDuringRead?.has(id) ?? false;
  }

  unwatch(): void {
    this.#doneDuringRead = undefined;
  }

  /** Their outcomes are durable (or a ledger row stands for them). */
  done(ids: readonly string[]): void {
    for (const id of ids) {
      const partition = this.#partitionOf.get(id);
      if (partition === undefined) continue;
      this.#doneDuringRead?.add(id);
      this.#partitionOf.delete(id);
      this.#held.get(partition)?.delete(id);
    }
  }

  /** Let go without a durable outcome: the next read of its partition finds it again. */
  forget(ids: readonly string[]): void {
    for (const id of ids) {
      const partition = this.#partitionOf.get(id);
      if (partition === undefined) continue;
      const tx = this.#held.get(partition)?.get(id);
      this.#partitionOf.delete(id);
      this.#held.get(partition)?.delete(id);
      const scanned = this.#scanned.get(partition);
      if (tx !== undefined && scanned !== undefined && tx < scanned) this.#scanned.set(partition, tx);
    }
  }

  /** The position each open partition may be stored at: below it, every row's outcome is durable. */
  positions(): Map<number, string> {
    const positions = new Map<number, string>();
    for (const [partition, scanned] of this.#scanned) {
      let least = scanned;
      for (const tx of this.#held.get(partition)?.values() ?? []) if (tx < least) least = tx;
      positions.set(partition, least.toString());
    }
    return positions;
  }

  /** Deliveries of the log held. */
  get size(): number {
    return this.#partitionOf.size;
  }
}
