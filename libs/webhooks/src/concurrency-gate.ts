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
      if (this.#waiters.length > 0) this.#serve();
    };
  }

  /** When a place of each environment, and of each host, last came back. */
  readonly #environmentReleased = new Map<string, number>();
  readonly #hostReleased = new Map<string, number>();
  readonly #waiters: { environment: string; host: string; e: string; h: string; grant: (release: () => void) => void }[] = [];
  /** Waiters per environment (`e…`) and host (`h…`) key: whether a newcomer must queue, without a scan. */
  readonly #waiting = new Map<string, number>();

  #unwait(waiter: { e: string; h: string }): void {
    decrement(this.#waiting, waiter.e);
    decrement(this.#waiting, waiter.h);
  }

  /**
   * Like tryAcquire, but never ahead of those already waiting for the same places (`acquire`):
   * the place at once, without a promise, or null when it would have to wait.
   */
  acquireNow(environment: string, host: string): (() => void) | null {
    if (this.#waiting.size > 0 && (this.#waiting.has(`e\u0000${environment}`) || this.#waiting.has(`h\u0000${host}`))) return null;
    return this.tryAcquire(environment, host);
  }

  /**
   * Like acquireNow, but waits up to `waitMs` for the places to come free; null if they did not.
   */
  acquire(environment: string, host: string, waitMs: number): Promise<(() => void) | null> {
    const now = this.acquireNow(environment, host);
    if (now || waitMs <= 0) return Promise.resolve(now);
    const e = `e\u0000${environment}`;
    const h = `h\u0000${host}`;
    // waiting only pays where places turn over: an endpoint that hangs returns none, and its
    // deliveries are deferred at once instead of holding their jobs
    const at = Date.now();
    const stale = (released: number | undefined, full: boolean) => full && at - (released ?? 0) > waitMs;
    const environmentFull = (this.#environments.get(environment) ?? 0) >= this.#limits.perEnvironment;
    const hostFull = (this.#hosts.get(host) ?? 0) >= this.#limits.perHost;
    if (stale(this.#environmentReleased.get(environment), environmentFull) || stale(this.#hostReleased.get(host), hostFull)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter = {
        environment,
        host,
        e,
        h,
        grant: (release: () => void) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        const at = this.#waiters.indexOf(waiter);
        if (at >= 0) {
          this.#waiters.splice(at, 1);
          this.#unwait(waiter);
        }
        resolve(null);
        // those behind it may fit now that it no longer waits
        this.#serve();
      }, waitMs);
      this.#waiters.push(waiter);
      this.#waiting.set(e, (this.#waiting.get(e) ?? 0) + 1);
      this.#waiting.set(h, (this.#waiting.get(h) ?? 0) + 1);
    });
  }

  /** Grants places to waiters, in order, while they fit. */
  #serve(): void {
    // once an environment or host is found full in this pass, its later waiters are skipped unread
    const full = new Set<string>();
    for (let i = 0; i < this.#waiters.length; ) {
      const waiter = this.#waiters[i]!;
      const { e, h } = waiter;
      const release = full.has(e) || full.has(h) ? null : this.tryAcquire(waiter.environment, waiter.host);
      if (!release) {
        if ((this.#environments.get(waiter.environment) ?? 0) >= this.#limits.perEnvironment) full.add(e);
        if ((this.#hosts.get(waiter.host) ?? 0) >= this.#limits.perHost) full.add(h);
        i++;
        continue;
      }
      this.#waiters.splice(i, 1);
      this.#unwait(waiter);
      waiter.grant(release);
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

function decrement(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 1) - 1;
  if (n <= 0) map.delete(key);
  else map.set(key, n);
}
