/**
 * A partition actor's mailbox, fair across environments. Commands wait in one FIFO queue per
 * environment; a batch is taken round-robin, one command per environment per round, up to the
 * batch size, and each take starts one environment further than the last. So a command of a
 * quiet environment waits for at most the batch in flight and its own turn, however long a
 * flooding environment's queue is; order within an environment (and so within a channel) is
 * kept.
 *
 * Admission is per environment, so the environment that floods is the one refused:
 * - an environment may have at most `perEnvironment` commands waiting;
 * - once the whole mailbox holds `total`, only environments holding less than an equal share
 *   (total ÷ environments waiting) are still admitted, up to a hard ceiling of 2 × total.
 */

export interface MailboxLimits {
  perEnvironment: number;
  total: number;
}

export class FairMailbox<T> {
  private readonly limits: MailboxLimits;
  /** Insertion order is the round-robin order; empty queues are removed. */
  private queues = new Map<string, T[]>();
  private size = 0;

  constructor(limits: MailboxLimits) {
    this.limits = limits;
  }

  get length(): number {
    return this.size;
  }

  /** Queues `item` for `environmentId`; false when that environment must be refused. */
  offer(environmentId: string, item: T): boolean {
    const queue = this.queues.get(environmentId);
    const mine = queue?.length ?? 0;
    if (mine >= this.limits.perEnvironment) return false;
    if (this.size >= this.limits.total) {
      const environments = this.queues.size + (queue ? 0 : 1);
      if (this.size >= 2 * this.limits.total || mine >= this.limits.total / environments) return false;
    }
    if (queue) queue.push(item);
    else this.queues.set(environmentId, [item]);
    this.size++;
    return true;
  }

  /** Up to `max` items, round-robin over environments, each environment's in arrival order. */
  take(max: number): T[] {
    const taken: T[] = [];
    const start = this.queues.keys().next().value;
    while (taken.length < max && this.size > 0) {
      for (const [environmentId, queue] of this.queues) {
        if (taken.length >= max) break;
        taken.push(queue.shift()!);
        this.size--;
        if (queue.length === 0) this.queues.delete(environmentId);
      }
    }
    // the next take starts with the environment after the one this take started with
    const queue = start === undefined ? undefined : this.queues.get(start);
    if (queue) {
      this.queues.delete(start!);
      this.queues.set(start!, queue);
    }
    return taken;
  }

  /** Everything waiting, emptying the mailbox. */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues = new Map();
    this.size = 0;
    return all;
  }
}
