/**
 * Deliveries waiting in their owner's memory (push-intake.ts), in arrival order, each delivery id
 * at most once across all queues. A notice says only a delivery's environment, so deliveries wait
 * in their environment's queue; one claimed and found to belong to an endpoint with a rate of its
 * own, and held back, waits in that endpoint's queue instead (a lane: environment and endpoint),
 * so a rate-limited endpoint's backlog never stands in front of its environment's other
 * endpoints. The queues are served in turn, so one endpoint's backlog never stands in front of
 * another's.
 */

/** A queue: an environment's (endpointId null) or one endpoint's of it. */
export interface Lane {
  environmentId: string;
  endpointId: string | null;
}

const laneKey = (environmentId: string, endpointId: string | null): string => (endpointId === null ? environmentId : `${environmentId}\n${endpointId}`);

/**
 * Ids in order, taken from the front in chunks: a read position instead of `splice(0, n)`, which
 * would move every id behind it for each chunk (a backlog of 20,000 is 1,250 chunks).
 */
class IdQueue {
  #ids: string[];
  #head = 0;

  constructor(ids: string[]) {
    this.#ids = ids;
  }

  get length(): number {
    return this.#ids.length - this.#head;
  }

  push(id: string): void {
    this.#ids.push(id);
  }

  unshift(ids: readonly string[]): void {
    if (ids.length <= this.#head) {
      this.#head -= ids.length;
      for (let i = 0; i < ids.length; i++) this.#ids[this.#head + i] = ids[i]!;
    } else {
      this.#ids = [...ids, ...this.#ids.slice(this.#head)];
      this.#head = 0;
    }
  }

  take(n: number): string[] {
    const ids = this.#ids.slice(this.#head, this.#head + n);
    this.#head += ids.length;
    // the ids read are let go once they are half of the array
    if (this.#head > 1024 && this.#head * 2 > this.#ids.length) {
      this.#ids = this.#ids.slice(this.#head);
      this.#head = 0;
    }
    return ids;
  }

  all(): string[] {
    return this.#ids.slice(this.#head);
  }
}

export class EndpointQueues {
  readonly #queues = new Map<string, { lane: Lane; ids: IdQueue }>();
  readonly #ids = new Set<string>();
  /** Where the next turn starts among the queues with deliveries waiting. */
  #turn = 0;

  /** Deliveries waiting. */
  get size(): number {
    return this.#ids.size;
  }

  /** The environments with deliveries waiting (in any of their queues). */
  get environments(): string[] {
    return [...new Set([...this.#queues.values()].map((queue) => queue.lane.environmentId))];
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Appends `[id, environmentId]` pairs to their environments' queues; an id already waiting is skipped. */
  push(deliveries: readonly (readonly [id: string, environmentId: string])[]): void {
    for (const [id, environmentId] of deliveries) {
      if (this.#ids.has(id)) continue;
      this.#ids.add(id);
      const queue = this.#queues.get(environmentId);
      if (queue) queue.ids.push(id);
      else this.#queues.set(environmentId, { lane: { environmentId, endpointId: null }, ids: new IdQueue([id]) });
    }
  }

  /** Puts ids back at the front of a queue (those not already waiting): the environment's, or its endpoint's. */
  unshift(environmentId: string, ids: readonly string[], endpointId: string | null = null): void {
    const fresh = ids.filter((id) => !this.#ids.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.#ids.add(id);
    const key = laneKey(environmentId, endpointId);
    const queue = this.#queues.get(key);
    if (queue) queue.ids.unshift(fresh);
    else this.#queues.set(key, { lane: { environmentId, endpointId }, ids: new IdQueue(fresh) });
  }

  /** Removes the queues of the environments `matches` selects; their ids, in queue order. */
  removeWhere(matches: (environmentId: string) => boolean): string[] {
    const removed: string[] = [];
    for (const [key, queue] of this.#queues) {
      if (!matches(queue.lane.environmentId)) continue;
      this.#queues.delete(key);
      const ids = queue.ids.all();
      for (const id of ids) this.#ids.delete(id);
      removed.push(...ids);
    }
    return removed;
  }

  /**
   * The next queue's turn: the queues with deliveries waiting, taken in turn from where the last
   * turn ended, the first whose `room` is above 0 gives up to min(room, max) of its deliveries
   * (removed). Undefined when none has room.
   */
  next(
    room: (environmentId: string, endpointId: string | null) => number,
    max: number,
  ): { environmentId: string; endpointId?: string; ids: string[] } | undefined {
    const keys = [...this.#queues.keys()];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(this.#turn + i) % keys.length]!;
      const queue = this.#queues.get(key)!;
      const { environmentId, endpointId } = queue.lane;
      const places = room(environmentId, endpointId);
      if (places <= 0) continue;
      this.#turn = (this.#turn + i + 1) % keys.length;
      const ids = queue.ids.take(Math.min(places, max));
      if (queue.ids.length === 0) this.#queues.delete(key);
      for (const id of ids) this.#ids.delete(id);
      return endpointId === null ? { environmentId, ids } : { environmentId, endpointId, ids };
    }
    return undefined;
  }
}
