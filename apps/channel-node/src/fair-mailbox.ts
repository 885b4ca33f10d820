/**
 * A partition actor's mailbox, fair across environments: each environment has its own FIFO
 * queue, and a batch is taken round-robin, one command per environment per round, starting after
 * the environment served last. So a flooding environment fills batches only with what the others
 * leave, and a quiet environment's command waits for at most one batch, not behind the flood.
 * Order within an environment (hence within a channel) is kept.
 *
 * Bounds: at most `perKey` commands per environment (the flooding one is refused first, not the
 * others) and `total` overall.
 */
export class FairMailbox<T> {
  private readonly queues = new Map<string, T[]>();
  private readonly perKey: number;
  private readonly total: number;
  size = 0;

  constructor(limits: { perKey: number; total: number }) {
    this.perKey = limits.perKey;
    this.total = limits.total;
  }

  /** False (nothing queued) when the key's queue or the whole mailbox is full. */
  push(key: string, item: T): boolean {
    let queue = this.queues.get(key);
    if ((queue?.length ?? 0) >= this.perKey || this.size >= this.total) return false;
    if (!queue) this.queues.set(key, (queue = []));
    queue.push(item);
    this.size++;
    return true;
  }

  /** Up to `max` items, round-robin over keys. */
  take(max: number): T[] {
    const out: T[] = [];
    if (this.queues.size === 1) {
      const [key, queue] = this.queues.entries().next().value as [string, T[]];
      out.push(...queue.splice(0, max));
      if (queue.length === 0) this.queues.delete(key);
    } else {
      while (out.length < max && this.queues.size > 0) {
        // one per key per round; a served key moves to the back of the rotation
        for (const [key, queue] of [...this.queues]) {
          if (out.length >= max) break;
          out.push(queue.shift()!);
          this.queues.delete(key);
          if (queue.length > 0) this.queues.set(key, queue);
        }
      }
    }
    this.size -= out.length;
    return out;
  }

  /** Everything, emptying the mailbox. */
  drain(): T[] {
    return this.take(this.size);
  }
}
