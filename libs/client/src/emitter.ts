/**
 * A minimal typed event emitter. `on` returns the function that removes the listener. A listener
 * that throws does not stop the others or the SDK: its error is reported asynchronously, as a DOM
 * EventTarget does.
 */
export class Emitter<Events extends { [K in keyof Events]: (...args: any[]) => void }> {
  readonly #listeners = new Map<keyof Events, Set<Events[keyof Events]>>();

  on<K extends keyof Events>(name: K, listener: Events[K]): () => void {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    // wrapped so that the same function added twice is two listeners, removed one at a time
    const entry = ((...args: Parameters<Events[K]>) => listener(...args)) as Events[K];
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  emit<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): void {
    const set = this.#listeners.get(name);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  count<K extends keyof Events>(name: K): number {
    return this.#listeners.get(name)?.size ?? 0;
  }
}

/** An application listener threw: surface it like an uncaught error without breaking the SDK. */
export function reportListenerError(error: unknown): void {
  setTimeout(() => {
    throw error;
  }, 0);
}
