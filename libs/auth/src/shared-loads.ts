/**
 * Loads that overlap share one read: while the load of a key runs, callers asking for the same key
 * get its promise instead of starting another (a storm of handshakes missing one signing key, or a
 * batch publish missing one channel's access, costs one query). A load is forgotten once it
 * settles. Caches put in the key whatever must match for sharing, such as their generation, so a
 * load begun before an invalidation is not handed to callers after it.
 */
export class SharedLoads {
  readonly #running = new Map<string, Promise<unknown>>();

  /** The load of `key` running now, if any. */
  running<T>(key: string): Promise<T> | undefined {
    return this.#running.get(key) as Promise<T> | undefined;
  }

  /** Starts `load` as the one load of `key` until it settles. */
  start<T>(key: string, load: () => Promise<T>): Promise<T> {
    const loaded = load();
    this.#running.set(key, loaded);
    const forget = (): void => {
      if (this.#running.get(key) === loaded) this.#running.delete(key);
    };
    loaded.then(forget, forget);
    return loaded;
  }
}
