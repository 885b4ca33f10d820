/**
 * How many deliveries a dispatcher sends at once per environment and per host. A delivery that
 * would go over either limit is not sent now: the caller defers it (reschedules it a little
 * later, without counting an attempt). So an environment whose endpoint hangs holds at most
 * `perEnvironment` sends (and worker slots), and a host shared by many environments at most
 * `perHost`, whatever the number of its deliveries due.
 *
 * `acquire` may wait a little for a place: places held by sends that finish quickly come back
 * within milliseconds, and deferring (a round trip to Postgres and a second or two of delay) for a
 * place that frees up so soon throttles a busy but healthy endpoint far below its limit. The wait
 * is bounded, and a full environment or host whose places have not turned over within the wait
 * (an endpoint that hangs) is not waited for at all: its deliveries are deferred at once.
 * Waiters are served first come, first served, each when both its places are free.
 */
export interface ConcurrencyLimits {
  perEnvironment: number;
  perHost: number;
}

export class ConcurrencyGate {
  readonly #limits: ConcurrencyLimits;
  readonly #environments = new Map<string, number>();
  readonly #hosts = new Map<string, number>();

  constructor(limits: ConcurrencyLimits) {
    this.#limits = limits;
  }

  /**
   * Takes a place for one send to `host` for `environment`, or returns null when either is at
   * its limit. The returned function gives the place back (idempotent).
   */
  tryAcquire(environment: string, host: string): (() => void) | null {
    const e = this.#environments.get(environment) ?? 0;
    const h = this.#hosts.get(host) ?? 0;
    if (e >= this.#limits.perEnvironment || h >= this.#limits.perHost) return null;
    this.#environments.set(environment, e + 1);
    this.#hosts.set(host, h + 1);
    // a key never released counts from its first use (a new endpoint is not stale at once)
    if ((e === 0 && !this.#environmentReleased.has(environment)) || (h === 0 && !this.#hostReleased.has(host))) {
      const now = Date.now();
      if (!this.#environmentReleased.has(environment)) this.#environmentReleased.set(environment, now);
      if (!this.#hostReleased.has(host)) this.#hostReleased.set(host, now);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.#environments, environment);
      decrement(this.#hosts, host);
      const now = Date.now();
      this.#environmentReleased.set(environment, now);
      this.#hostReleased.set(host, now);
      if (this.#hostReleased.size > 100_000) {
        this.#environmentReleased.clear();
        this.#hostReleased.clear();
      }
      this.#serve(environment, host);
    };
  }

  /** When a place of each environment, and of each host, last came back. */
  readonly #environmentReleased = new Map<string, number>();
  readonly #hostReleased = new Map<string, number>();
  /**
   * Those waiting, by environment and by host, each set in arrival order: whether a newcomer must
   * queue, and whom a place that comes back may serve (only waiters of its environment or host:
   * nobody else's counts changed), without a scan of every waiter.
   */
  readonly #byEnvironment = new Map<string, Set<Waiter>>();
  readonly #byHost = new Map<string, Set<Waiter>>();
  #arrivals = 0;

  #unwait(waiter: Waiter): void {
    remove(this.#byEnvironment, waiter.environment, waiter);
    remove(this.#byHost, waiter.host, waiter);
  }

  /**
   * Like tryAcquire, but never ahead of those already waiting for the same places (`acquire`):
   * the place at once, without a promise, or null when it would have to wait.
   */
  acquireNow(environment: string, host: string): (() => void) | null {
    if (this.#byEnvironment.has(environment) || this.#byHost.has(host)) return null;
    return this.tryAcquire(environment, host);
  }

  /**
   * Like acquireNow, but waits up to `waitMs` for the places to come free; null if they did not.
   */
  acquire(environment: string, host: string, waitMs: number): Promise<(() => void) | null> {
    const now = this.acquireNow(environment, host);
    if (now || waitMs <= 0) return Promise.resolve(now);
    // waiting only pays where places turn over: an endpoint that hangs returns none, and its
    // deliveries are deferred at once instead of holding their jobs
    const at = Date.now();
    const stale = (released: number | undefined, full: boolean) => full && at - (released ?? 0) > waitMs;
    const environmentFull = (this.#environments.get(environment) ?? 0) >= this.#limits.perEnvironment;
    const hostFull = (this.#hosts.get(host) ?? 0) >= this.#limits.perHost;
    if (stale(this.#environmentReleased.get(environment), environmentFull) || stale(this.#hostReleased.get(host), hostFull)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        environment,
        host,
        arrival: this.#arrivals++,
        grant: (release: () => void) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        if (this.#byEnvironment.get(environment)?.has(waiter)) this.#unwait(waiter);
        resolve(null);
        // those behind it may fit now that it no longer waits
        this.#serve(environment, host);
      }, waitMs);
      add(this.#byEnvironment, environment, waiter);
      add(this.#byHost, host, waiter);
    });
  }

  /**
   * Grants places to the waiters of `environment` and of `host` (whose places just came back, or
   * one of whose waiters left), in arrival order, while they fit.
   */
  #serve(environment: string, host: string): void {
    const ofEnvironment = this.#byEnvironment.get(environment);
    const ofHost = this.#byHost.get(host);
    if (!ofEnvironment && !ofHost) return;
    // the common case: every waiter of the host is one of the environment's (a dispatcher's hosts
    // are per environment), so the environment's set, in arrival order, is every candidate
    let candidates: Iterable<Waiter>;
    if (!ofHost) candidates = ofEnvironment!;
    else if (!ofEnvironment) candidates = ofHost;
    else if (every(ofHost, (waiter) => waiter.environment === environment)) candidates = ofEnvironment;
    else candidates = [...new Set([...ofEnvironment, ...ofHost])].sort((a, b) => a.arrival - b.arrival);
    // once an environment or host is found full in this pass, its later waiters are skipped
    let fullEnvironments: Set<string> | undefined;
    let fullHosts: Set<string> | undefined;
    for (const waiter of candidates) {
      if (fullEnvironments?.has(waiter.environment) || fullHosts?.has(waiter.host)) continue;
      const release = this.tryAcquire(waiter.environment, waiter.host);
      if (release) {
        // deleting from the set being iterated is safe: the iteration goes on with the next one
        this.#unwait(waiter);
        waiter.grant(release);
        continue;
      }
      if ((this.#environments.get(waiter.environment) ?? 0) >= this.#limits.perEnvironment) {
        // every later waiter of one environment's set needs this environment's place too
        if (candidates === ofEnvironment) return;
        (fullEnvironments ??= new Set()).add(waiter.environment);
      }
      if ((this.#hosts.get(waiter.host) ?? 0) >= this.#limits.perHost) (fullHosts ??= new Set()).add(waiter.host);
    }
  }

  /** Sends in flight for one environment. */
  inFlightOf(environment: string): number {
    return this.#environments.get(environment) ?? 0;
  }

  inFlight(): { environments: number; hosts: number; sends: number } {
    let sends = 0;
    for (const n of this.#environments.values()) sends += n;
    return { environments: this.#environments.size, hosts: this.#hosts.size, sends };
  }
}

interface Waiter {
  environment: string;
  host: string;
  /** Arrival order (first come, first served across the two indexes). */
  arrival: number;
  grant: (release: () => void) => void;
}

function every(waiters: Set<Waiter>, test: (waiter: Waiter) => boolean): boolean {
  for (const waiter of waiters) if (!test(waiter)) return false;
  return true;
}

function add(index: Map<string, Set<Waiter>>, key: string, waiter: Waiter): void {
  const set = index.get(key);
  if (set) set.add(waiter);
  else index.set(key, new Set([waiter]));
}

function remove(index: Map<string, Set<Waiter>>, key: string, waiter: Waiter): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(waiter);
  if (set.size === 0) index.delete(key);
}

function decrement(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 1) - 1;
  if (n <= 0) map.delete(key);
  else map.set(key, n);
}
