/** Time as the SDK sees it; tests pass a fake one. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A timer slot: at most one pending callback, replaced or cleared as a unit. */
export class Timer {
  #handle: unknown;
  #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get pending(): boolean {
    return this.#handle !== undefined;
  }

  set(ms: number, callback: () => void): void {
    this.clear();
    const handle = this.#clock.setTimeout(
      () => {
        if (this.#handle !== handle) return;
        this.#handle = undefined;
        callback();
      },
      Math.max(0, ms),
    );
    this.#handle = handle;
  }

  clear(): void {
    if (this.#handle === undefined) return;
    this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}

/** A promise that resolves after `ms` on `clock`. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, Math.max(0, ms)));
}
