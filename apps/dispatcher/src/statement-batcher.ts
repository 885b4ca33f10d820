/**
 * Group commit for one kind of statement (the deliverer's claims, its records): callers add their
 * items and wait for the statement that carries them. At rest an item goes at once, alone; while
 * `concurrency` statements are running, new items wait and leave together in the next one (at
 * most `maxItems` each). So the number of statements follows the database's round trips, not the
 * number of callers: under load each one carries many chunks' deliveries, and no caller waits
 * for a timer.
 */
export class StatementBatcher<I, R, T = R> {
  readonly #run: (items: I[]) => Promise<R>;
  readonly #share: (result: R, items: readonly I[]) => T;
  readonly #concurrency: number;
  readonly #maxItems: number;
  readonly #gatherMs: number;
  #waiting: { items: I[]; at: number; resolve: (result: T) => void; reject: (error: unknown) => void }[] = [];
  #waitingItems = 0;
  #running = 0;
  #gather: NodeJS.Timeout | undefined;

  /**
   * `run` executes one statement for the items given. Each caller whose items it carried gets
   * `share(result, its items)`, called for the callers in the order they came, one after the
   * other (so a result that is taken, such as a claimed row, goes to one caller only); by
   * default every caller gets the whole result. `gatherMs`: a statement that could start waits
   * until its first item is this old (or maxItems are waiting), so that at moderate rates one
   * statement carries many items; for statements no caller's latency depends on (0: none).
   */
  constructor(
    run: (items: I[]) => Promise<R>,
    options: { concurrency: number; maxItems: number; gatherMs?: number; share?: (result: R, items: readonly I[]) => T },
  ) {
    this.#run = run;
    this.#share = options.share ?? ((result) => result as unknown as T);
    this.#concurrency = options.concurrency;
    this.#maxItems = options.maxItems;
    this.#gatherMs = options.gatherMs ?? 0;
  }

  /** Resolves with the result of the statement that carried `items` (rejects if it failed). */
  add(items: readonly I[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ items: [...items], at: this.#gatherMs > 0 ? Date.now() : 0, resolve, reject });
      this.#waitingItems += items.length;
      this.#next();
    });
  }

  /** Items waiting for a statement (not those of statements running). */
  get pending(): number {
    return this.#waitingItems;
  }

  #next(): void {
    while (this.#running < this.#concurrency && this.#waiting.length > 0) {
      if (this.#gatherMs > 0 && this.#waitingItems < this.#maxItems) {
        const wait = this.#waiting[0]!.at + this.#gatherMs - Date.now();
        if (wait > 0) {
          this.#gather ??= setTimeout(() => {
            this.#gather = undefined;
            this.#next();
          }, Math.ceil(wait));
          return;
        }
      }
      // callers are never split: a statement takes whole callers up to maxItems (at least one)
      let count = 0;
      let take = 0;
      while (take < this.#waiting.length && (take === 0 || count + this.#waiting[take]!.items.length <= this.#maxItems)) {
        count += this.#waiting[take]!.items.length;
        take++;
      }
      const callers = this.#waiting.splice(0, take);
      this.#waitingItems -= count;
      this.#running++;
      const items = callers.length === 1 ? callers[0]!.items : callers.flatMap((caller) => caller.items);
      this.#run(items)
        .then(
          (result) => {
            for (const caller of callers) {
              let share: T;
              try {
                share = this.#share(result, caller.items);
              } catch (error) {
                caller.reject(error);
                continue;
              }
              caller.resolve(share);
            }
          },
          (error: unknown) => {
            for (const caller of callers) caller.reject(error);
          },
        )
        .finally(() => {
          this.#running--;
          this.#next();
        });
    }
  }
}
