/**
 * A NATS KV bucket in memory for the presence unit tests: puts, reads, listings and watchers,
 * counted. `deliveryMs` delays what watchers see of a put (as a real watcher lags the write); a
 * watcher's first values are the bucket's at its opening (`initializedFn` is called then);
 * watchers can be refused (none can be opened) or ended (as when NATS drops them).
 */
export interface Entry {
  key: string;
  revision: number;
  operation: 'PUT' | 'DEL' | 'PURGE';
  created: Date;
  value: Uint8Array;
}

export function memoryBucket(options: { deliveryMs?: number } = {}) {
  let revision = 0;
  let watchable = true;
  const live = new Map<string, Entry>();
  const watchers = new Set<{ push: (e: Entry) => void; end: () => void }>();
  const counts = { listings: 0, watches: 0, puts: 0 };
  const deliver = (entry: Entry) => watchers.forEach((w) => w.push(entry));
  const kv = {
    put: async (key: string, value: Uint8Array) => {
      counts.puts++;
      const entry: Entry = { key, revision: ++revision, operation: 'PUT', created: new Date(), value };
      live.set(key, entry);
      if (options.deliveryMs === undefined) deliver(entry);
      else setTimeout(() => deliver(entry), options.deliveryMs);
      return entry.revision;
    },
    get: async (key: string) => live.get(key) ?? null,
    keys: async (filter: string) => {
      counts.listings++;
      const prefix = filter.replace(/(\.[*>])+$/, '.');
      const found = [...live.keys()].filter((k) => k.startsWith(prefix));
      return Object.assign(
        (async function* () {
          yield* found;
        })(),
        { stop() {} },
      );
    },
    watch: async (opts: { initializedFn?: () => void } = {}) => {
      counts.watches++;
      if (!watchable) throw new Error('no watcher today');
      const queue: Entry[] = [...live.values()];
      let received = queue.length;
      let wake: (() => void) | undefined;
      let ended = false;
      const watcher = { push: (e: Entry) => (received++, queue.push(e), wake?.()), end: () => ((ended = true), wake?.()) };
      // as NATS does when every first value arrived before the watcher is handed over: called at once
      opts.initializedFn?.();
      watchers.add(watcher);
      const iterator = (async function* () {
        while (true) {
          while (queue.length > 0) yield queue.shift()!;
          if (ended) return void watchers.delete(watcher);
          await new Promise<void>((resolve) => (wake = resolve));
        }
      })();
      return Object.assign(iterator, { stop: () => watcher.end(), getReceived: () => received });
    },
  };
  return {
    kv,
    counts,
    live,
    refuseWatchers: () => (watchable = false),
    endWatchers: () => {
      for (const watcher of watchers) watcher.end();
      watchers.clear();
    },
  };
}
