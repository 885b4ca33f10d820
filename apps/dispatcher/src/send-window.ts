/**
 * The owner's memory side of push-intake.ts, without NATS or Postgres: the deliveries waiting per
 * endpoint (endpoint-queues.ts) and the window of chunks being sent. The environments with
 * deliveries waiting are taken in turn, and each gets only what its endpoint has room for now
 * (endpoint-guard.ts) minus what was already handed over and has not started sending; nothing
 * while its circuit is open, one probe when it half-opens. A chunk (one environment's deliveries,
 * at most `chunk`) goes to the sender, with up to `window` chunks being sent at once. When no
 * environment has room, a timer wakes the window at the earliest time a refusing endpoint admits
 * again; a freed place wakes it at once.
 *
 * A queue of one endpoint (a delivery found, once claimed, to belong to an endpoint with a rate
 * of its own, and held back by it: endpoint-queues.ts) gets the lesser of its environment's room
 * and what the endpoint's own rate allows now, and wakes the window when that rate admits again.
 */
import type { EndpointGuard } from './endpoint-guard.ts';
import { EndpointQueues } from './endpoint-queues.ts';

/** Deliveries per chunk handed to the sender (claims and records carry many chunks: deliverer.ts). */
const CHUNK = 16;
/** Chunks being sent at once by this dispatcher (their slow sends finish in the background). */
const WINDOW = 64;

export interface SendWindowDeps {
  endpoints: Pick<EndpointGuard, 'room' | 'refusedUntil' | 'onFreed'> & Partial<Pick<EndpointGuard, 'endpointRoom' | 'endpointRefusedUntil'>>;
  /**
   * Sends a chunk (Deliverer.deliver): calls `sending` once its sends hold their places (or were
   * put back), `requeue` with the ids whose endpoint had no room after all (`endpointId`: the
   * endpoint with a rate of its own they belong to, whose queue they wait in).
   */
  send(ids: string[], sending: () => void, requeue: (ids: string[], endpointId?: string) => void): Promise<void>;
  /** Claimed ids of `environmentId` the sender put back: the owner queues them again or hands them back. */
  putBack(environmentId: string, ids: string[], endpointId?: string): void;
  /** A chunk whose sending failed (not recorded: its leases lapse). */
  failed(error: unknown, ids: string[]): void;
  /** Deliveries per chunk, and chunks sent at once (defaults: 16 and 64). */
  chunk?: number;
  window?: number;
}

export class SendWindow {
  readonly #deps: SendWindowDeps;
  readonly #chunk: number;
  readonly #window: number;
  /** Per environment, its deliveries waiting, in arrival order. */
  readonly #queues = new EndpointQueues();
  /** Per environment, deliveries handed to the sender whose sends have not started yet. */
  readonly #reserved = new Map<string, number>();
  /** Per endpoint with a queue of its own, deliveries handed over whose sends have not started. */
  readonly #reservedOf = new Map<string, number>();
  readonly #idle = new Set<() => void>();
  #running = 0;
  #stopped = false;
  #wake: NodeJS.Timeout | undefined;

  constructor(deps: SendWindowDeps) {
    this.#deps = deps;
    this.#chunk = deps.chunk ?? CHUNK;
    this.#window = deps.window ?? WINDOW;
    // a send that ends frees a place of its endpoint: what waited for it may go now
    deps.endpoints.onFreed(() => this.#pump());
  }

  /** Deliveries waiting. */
  get queued(): number {
    return this.#queues.size;
  }

  /** Chunks being sent. */
  get running(): number {
    return this.#running;
  }

  /** The environments with deliveries waiting. */
  get environments(): string[] {
    return this.#queues.environments;
  }

  has(id: string): boolean {
    return this.#queues.has(id);
  }

  /** Queues `[id, environmentId]` pairs (an id already waiting is skipped) and sends what has room. */
  push(deliveries: readonly (readonly [id: string, environmentId: string])[]): void {
    this.#queues.push(deliveries);
    this.#pump();
  }

  /** Puts ids back at the front of their environment's (or endpoint's) queue, to go when it has room. */
  unshift(environmentId: string, ids: readonly string[], endpointId: string | null = null): void {
    this.#queues.unshift(environmentId, ids, endpointId);
    this.#pump();
  }

  /** Removes the queues of the environments `matches` selects; their ids, in queue order. */
  removeWhere(matches: (environmentId: string) => boolean): string[] {
    return this.#queues.removeWhere(matches);
  }

  /** No more chunks start; those being sent go on (`settled`). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#wake);
  }

  /** Resolves once no chunk is being sent. */
  async settled(): Promise<void> {
    while (this.#running > 0) {
      await new Promise<void>((resolve) => this.#idle.add(resolve));
      this.#idle.clear();
    }
  }

  /**
   * The next chunk: the environments with deliveries waiting taken in turn, each for what its
   * endpoint has room for now. Undefined when none has room (then #wake is set for the earliest
   * circuit or rate that will admit again; freed places call #pump themselves).
   */
  #nextChunk(): { environmentId: string; endpointId?: string; ids: string[] } | undefined {
    const now = Date.now();
    let earliest = Infinity;
    const guard = this.#deps.endpoints;
    const chunk = this.#queues.next((environmentId, endpointId) => {
      let room = guard.room(environmentId, now) - (this.#reserved.get(environmentId) ?? 0);
      let until = room <= 0 ? guard.refusedUntil(environmentId, now) : null;
      if (endpointId !== null && room > 0 && guard.endpointRoom) {
        room = Math.min(room, guard.endpointRoom(endpointId, now) - (this.#reservedOf.get(endpointId) ?? 0));
        if (room <= 0) until = guard.endpointRefusedUntil?.(endpointId, now) ?? null;
      }
      if (room <= 0 && until !== null) earliest = Math.min(earliest, until);
      return room;
    }, this.#chunk);
    if (chunk) return chunk;
    if (earliest !== Infinity && !this.#wake) {
      this.#wake = setTimeout(
        () => {
          this.#wake = undefined;
          this.#pump();
        },
        Math.max(10, earliest - now),
      );
      this.#wake.unref();
    }
    return undefined;
  }

  #pump(): void {
    while (!this.#stopped && this.#running < this.#window && this.#queues.size > 0) {
      const chunk = this.#nextChunk();
      if (!chunk) return;
      const { environmentId, endpointId, ids } = chunk;
      this.#running++;
      this.#reserved.set(environmentId, (this.#reserved.get(environmentId) ?? 0) + ids.length);
      if (endpointId !== undefined) this.#reservedOf.set(endpointId, (this.#reservedOf.get(endpointId) ?? 0) + ids.length);
      let unreserved = false;
      // once the chunk's sends hold their places (counted by the deliverer) or were put back, the
      // reservation ends: the next chunk of this endpoint may be claimed while these are sent
      const unreserve = () => {
        if (unreserved) return;
        unreserved = true;
        const reserved = (this.#reserved.get(environmentId) ?? 0) - ids.length;
        if (reserved > 0) this.#reserved.set(environmentId, reserved);
        else this.#reserved.delete(environmentId);
        if (endpointId !== undefined) {
          const mine = (this.#reservedOf.get(endpointId) ?? 0) - ids.length;
          if (mine > 0) this.#reservedOf.set(endpointId, mine);
          else this.#reservedOf.delete(endpointId);
        }
        this.#pump();
      };
      this.#deps
        .send(ids, unreserve, (back, owner) => this.#deps.putBack(environmentId, back, owner))
        .catch((error: unknown) => this.#deps.failed(error, ids))
        .finally(() => {
          unreserve();
          this.#running--;
          this.#pump();
          if (this.#running === 0) for (const resolve of this.#idle) resolve();
        });
    }
  }
}
