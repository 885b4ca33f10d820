/**
 * How many deliveries a dispatcher sends at once per environment and per host. A delivery that
 * would go over either limit is not sent now: the caller defers it (reschedules it a little
 * later, without counting an attempt). So an environment whose endpoint hangs holds at most
 * `perEnvironment` sends (and worker slots), and a host shared by many environments at most
 * `perHost`, whatever the number of its deliveries due. Pure bookkeeping; no waiting inside.
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
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.#environments, environment);
      decrement(this.#hosts, host);
    };
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
