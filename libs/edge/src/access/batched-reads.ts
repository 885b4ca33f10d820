/**
 * Look-ups read together, per key (an environment): the look-ups asked in one event-loop turn
 * go in one read, and while MAX_IN_FLIGHT reads of a key are running, the look-ups asked
 * meanwhile wait and go together in the next one. In a storm of sockets arriving a few per turn,
 * that is what makes a read carry hundreds of look-ups instead of one or two, and the storm's
 * Postgres queries a few per second instead of several per socket; a quiet gateway still reads
 * at once. Each look-up is read by a query that started after it was asked (which the access
 * checks rely on: a ban or a removal made before the ask is seen). A failed read fails exactly
 * the look-ups it carried.
 */

/** Reads of one key running at once; the look-ups asked meanwhile wait for one to end. */
export const MAX_IN_FLIGHT = 2;

interface Waiting<Ask, Answer> {
  ask: Ask;
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

interface KeyState<Ask, Answer> {
  waiting: Waiting<Ask, Answer>[];
  inFlight: number;
  scheduled: boolean;
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
      if (!state) this.#keys.set(key, (state = { waiting: [], inFlight: 0, scheduled: false }));
      state.waiting.push({ ask, resolve, reject });
      this.#schedule(key, state);
    });
  }

  /** The next read starts at the end of this turn, if a read of the key may start. */
  #schedule(key: string, state: KeyState<Ask, Answer>): void {
    if (state.scheduled || state.inFlight >= MAX_IN_FLIGHT || state.waiting.length === 0) return;
    state.scheduled = true;
    setImmediate(() => {
      state.scheduled = false;
      this.#start(key, state);
    });
  }

  #start(key: string, state: KeyState<Ask, Answer>): void {
    while (state.inFlight < MAX_IN_FLIGHT && state.waiting.length > 0) {
      const batch = state.waiting.splice(0, this.#maxBatch);
      state.inFlight++;
      void this.#run(key, batch).finally(() => {
        state.inFlight--;
        if (state.inFlight === 0 && state.waiting.length === 0 && !state.scheduled) this.#keys.delete(key);
        else this.#schedule(key, state);
      });
      // one read per turn unless the waiting fill more than one batch
      if (state.waiting.length < this.#maxBatch) break;
    }
  }

  async #run(key: string, batch: Waiting<Ask, Answer>[]): Promise<void> {
    try {
      const answers = await this.#read(key, batch.map((w) => w.ask));
      batch.forEach((w, i) => w.resolve(answers[i]!));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
