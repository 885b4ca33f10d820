/**
 * Admission of one kind of work (a subscribe's access and seq reads, a replay's page read), fair
 * between environments. At most `concurrency` units run at once on the gateway and at most
 * `perKey` of one environment; the rest wait in one queue per environment, at most
 * `maxWaitingPerKey` each (past it the unit is refused at once). A freed slot goes to the next
 * environment in turn that has work waiting and is under `perKey` (round-robin between
 * environments, first come first served within one), so an environment with thousands of
 * subscribes queued delays another's next subscribe by at most one unit per waiting environment,
 * not by its whole queue. No I/O; the only timer is `run`'s optional hold deadline.
 */

/** Ends a unit's hold on its slot; calling it again does nothing. */
export type Release = () => void;

export interface FairGateOptions {
  /** Units running at once over every environment. */
  concurrency: number;
  /** Units of one environment running at once. */
  perKey: number;
  /** Units of one environment waiting; past it `acquire` rejects with `full(key)`. */
  maxWaitingPerKey: number;
  /** The error a refused unit is rejected with. */
  full: (key: string) => Error;
  /** `run` releases a unit's slot after this long even if its work has not settled (none: never). */
  holdMs?: number;
  /** After any change of `running` or `waiting` (metrics). */
  changed?: (gate: FairGate) => void;
}

interface Waiter {
  grant: (release: Release) => void;
}

export class FairGate {
  readonly #options: FairGateOptions;
  readonly #running = new Map<string, number>();
  /** Waiting units by environment; a key is present only while it has some. */
  readonly #queues = new Map<string, Waiter[]>();
  /** The order in which environments with waiting units are served; `#next` is the next to look at. */
  #turns: string[] = [];
  #next = 0;
  #total = 0;
  #waiting = 0;

  constructor(options: FairGateOptions) {
    this.#options = options;
  }

  /** Units running now, over every environment. */
  get running(): number {
    return this.#total;
  }

  /** Units waiting now, over every environment. */
  get waiting(): number {
    return this.#waiting;
  }

  runningOf(key: string): number {
    return this.#running.get(key) ?? 0;
  }

  waitingOf(key: string): number {
    return this.#queues.get(key)?.length ?? 0;
  }

  /** Resolves with the unit's release once it may run; rejects at once when its environment's queue is full. */
  acquire(key: string): Promise<Release> {
    if (this.#canRun(key) && !this.#queues.has(key)) {
      const release = this.#start(key);
      this.#options.changed?.(this);
      return Promise.resolve(release);
    }
    let queue = this.#queues.get(key);
    if (queue && queue.length >= this.#options.maxWaitingPerKey) return Promise.reject(this.#options.full(key));
    return new Promise<Release>((grant) => {
      if (!queue) {
        queue = [];
        this.#queues.set(key, queue);
        this.#turns.push(key);
      }
      queue.push({ grant });
      this.#waiting++;
      this.#dispatch();
      this.#options.changed?.(this);
    });
  }

  /**
   * Runs `work` once admitted; its slot is released when it settles, or after `holdMs` if it has
   * not settled by then (work stuck on a lost connection must not keep its environment's places
   * for ever; it goes on, uncounted).
   */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    const { holdMs } = this.#options;
    const timer = holdMs === undefined ? undefined : setTimeout(release, holdMs);
    timer?.unref();
    try {
      return await work();
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  #canRun(key: string): boolean {
    return this.#total < this.#options.concurrency && this.runningOf(key) < this.#options.perKey;
  }

  #start(key: string): Release {
    this.#total++;
    this.#running.set(key, this.runningOf(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = this.runningOf(key) - 1;
      if (left === 0) this.#running.delete(key);
      else this.#running.set(key, left);
      this.#dispatch();
      this.#options.changed?.(this);
    };
  }

  /** Grants free slots to waiting units, one environment at a time in turn. */
  #dispatch(): void {
    while (this.#total < this.#options.concurrency && this.#turns.length > 0) {
      let granted = false;
      for (let looked = 0; looked < this.#turns.length; looked++) {
        const at = (this.#next + looked) % this.#turns.length;
        const key = this.#turns[at]!;
        if (this.runningOf(key) >= this.#options.perKey) continue;
        const queue = this.#queues.get(key)!;
        const waiter = queue.shift()!;
        this.#waiting--;
        if (queue.length === 0) {
          this.#queues.delete(key);
          this.#turns.splice(at, 1);
          this.#next = this.#turns.length === 0 ? 0 : at % this.#turns.length;
        } else {
          this.#next = (at + 1) % this.#turns.length;
        }
        waiter.grant(this.#start(key));
        granted = true;
        break;
      }
      // every environment with work waiting is at its own limit
      if (!granted) return;
    }
  }
}
