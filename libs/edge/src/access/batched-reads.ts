/**
 * Look-ups read together, per key (an environment): the look-ups asked in one event-loop turn
 * go in one read, and while MAX_IN_FLIGHT reads of a key are running, the look-ups asked
 * meanwhile wait and go together in the next one. In a storm of sockets arriving a few per turn,
 * that is what makes a read carry hundreds of look-ups instead of one or two, and the storm's
 * Postgres queries a few per second instead of several per socket; a quiet gateway still reads
 * at once. A key read within the last HOT_MS is in a storm: its next read waits GATHER_MS for the
 * look-ups still arriving, since a read that ends before the next socket comes would otherwise
 * carry one look-up each (a storm of 500 sockets a second cost ~1.2 queries per socket and kind;
 * docs/benchmarks.md, "Large channel"). Each look-up is read by a query that started after it was asked (which the access
 * checks rely on: a ban or a removal made before the ask is seen). A failed read fails exactly
 * the look-ups it carried.
 */

/** Reads of one key running at once; the look-ups asked meanwhile wait for one to end. */
export const MAX_IN_FLIGHT = 2;
/** A key whose last read started this recently is hot: its next read gathers for GATHER_MS. */
export const HOT_MS = 20;
export const GATHER_MS = 10;

interface Waiting<Ask, Answer> {
  ask: Ask;
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

interface KeyState<Ask, Answer> {
  waiting: Waiting<Ask, Answer>[];
  inFlight: number;
  scheduled: boolean;
  /** When its last read started (performance.now()), 0 before the first. */
  lastStart: number;
}

export class BatchedReads<Ask, Answer> {
  readonly #keys = new Map<string, KeyState<Ask, Answer>>();
  readonly #maxBatch: number;
  /** Answers every ask of one batch (in order), reading them together. */
  readonly #read: (key: string, asks: Ask[]) => Promise<Answer[]>;

  constructor(read: (key: string, asks: Ask[]) => Promise<Answer[]>, options: { maxBatch: number }) {
    this.#read = read;
    this.#maxBatch = options.maxBatch;
  }

  load(key: string, ask: Ask): Promise<Answer> {
    return new Promise((resolve, reject) => {
      let state = this.#keys.get(key);
      if (!state) this.#keys.set(key, (state = { waiting: [], inFlight: 0, scheduled: false, lastStart: 0 }));
      state.waiting.push({ ask, resolve, reject });
      this.#schedule(key, state);
    });
  }

  /** The next read starts at the end of this turn (GATHER_MS later for a hot key), if a read of the key may start. */
  #schedule(key: string, state: KeyState<Ask, Answer>): void {
    if (state.scheduled || state.inFlight >= MAX_IN_FLIGHT || state.waiting.length === 0) return;
    state.scheduled = true;
    const start = () => {
      state.scheduled = false;
      this.#start(key, state);
    };
    if (state.lastStart !== 0 && performance.now() - state.lastStart < HOT_MS) setTimeout(start, GATHER_MS);
    else setImmediate(start);
  }

  #start(key: string, state: KeyState<Ask, Answer>): void {
    while (state.inFlight < MAX_IN_FLIGHT && state.waiting.length > 0) {
      const batch = state.waiting.splice(0, this.#maxBatch);
      state.inFlight++;
      state.lastStart = performance.now();
      void this.#run(key, batch).finally(() => {
        state.inFlight--;
        if (state.inFlight === 0 && state.waiting.length === 0 && !state.scheduled) this.#forgetWhenCold(key, state);
        else this.#schedule(key, state);
      });
      // one read per turn unless the waiting fill more than one batch
      if (state.waiting.length < this.#maxBatch) break;
    }
  }

  /** An idle key's state stays while it is hot (its last read's time is what makes it hot), then goes. */
  #forgetWhenCold(key: string, state: KeyState<Ask, Answer>): void {
    setTimeout(() => {
      if (state.inFlight === 0 && state.waiting.length === 0 && !state.scheduled && this.#keys.get(key) === state) this.#keys.delete(key);
    }, HOT_MS).unref();
  }

  async #run(key: string, batch: Waiting<Ask, Answer>[]): Promise<void> {
    try {
      const answers = await this.#read(
        key,
        batch.map((w) => w.ask),
      );
      batch.forEach((w, i) => w.resolve(answers[i]!));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
