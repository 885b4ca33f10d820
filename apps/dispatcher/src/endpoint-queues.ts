/**
 * Deliveries waiting in their owner's memory (push-intake.ts): one queue per environment, i.e.
 * per endpoint, in arrival order, each delivery id at most once across all of them. The
 * environments are served in turn, so one endpoint's backlog never stands in front of another's.
 */
export class EndpointQueues {
  readonly #queues = new Map<string, string[]>();
  readonly #ids = new Set<string>();
  /** Where the next turn starts among the environments with deliveries waiting. */
  #turn = 0;

  /** Deliveries waiting. */
  get size(): number {
    return this.#ids.size;
  }

  /** The environments with deliveries waiting. */
  get environments(): string[] {
    return [...this.#queues.keys()];
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
      if (queue) queue.push(id);
      else this.#queues.set(environmentId, [id]);
    }
  }

  /** Puts ids back at the front of their environment's queue (those not already waiting). */
  unshift(environmentId: string, ids: readonly string[]): void {
    const fresh = ids.filter((id) => !this.#ids.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.#ids.add(id);
    this.#queues.set(environmentId, [...fresh, ...(this.#queues.get(environmentId) ?? [])]);
  }

  /** Removes the queues of the environments `matches` selects; their ids, in queue order. */
  removeWhere(matches: (environmentId: string) => boolean): string[] {
    const removed: string[] = [];
    for (const [environmentId, queue] of this.#queues) {
      if (!matches(environmentId)) continue;
      this.#queues.delete(environmentId);
      for (const id of queue) this.#ids.delete(id);
      removed.push(...queue);
    }
    return removed;
  }

  /**
   * The next environment's turn: the environments with deliveries waiting, taken in turn from
   * where the last turn ended, the first whose `room` is above 0 gives up to min(room, max) of its
   * deliveries (removed). Undefined when none has room.
   */
  next(room: (environmentId: string) => number, max: number): { environmentId: string; ids: string[] } | undefined {
    const environments = this.environments;
    for (let i = 0; i < environments.length; i++) {
      const environmentId = environments[(this.#turn + i) % environments.length]!;
      const places = room(environmentId);
      if (places <= 0) continue;
      this.#turn = (this.#turn + i + 1) % environments.length;
      const queue = this.#queues.get(environmentId)!;
      const ids = queue.splice(0, Math.min(places, max));
      if (queue.length === 0) this.#queues.delete(environmentId);
      for (const id of ids) this.#ids.delete(id);
      return { environmentId, ids };
    }
    return undefined;
  }
}
