/**
 * Name resolution for the hosts tenants name (webhook endpoints in the dispatcher, JWKS URLs in
 * the gateway) that no tenant can exhaust.
 *
 * `dns.lookup` (getaddrinfo) runs on libuv's thread pool, 4 threads shared with the file system
 * and crypto: a few slow look-ups of one tenant's host fill it and every other delivery waits
 * behind them. Here names go through c-ares (`dns.promises.Resolver`, on the event loop, no
 * threads), each query with a timeout and a bounded number of tries, and:
 * - one query per name at a time (concurrent callers share it);
 * - answers cached for their TTL (between 1 s and 60 s), failures for 5 s, so a thousand
 *   deliveries to a name that never resolves cost one query per 5 s, not a thousand;
 * - `localhost` is answered here (127.0.0.1, ::1) when loopback is allowed and refused when not;
 *   /etc/hosts is not consulted for other names.
 * Failures carry the code `ERTM_DNS` (classified `dns`), never a resolver message.
 */
import { Resolver } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { addressRefusal, isLoopbackAddress } from './url-policy.ts';

/** The code the address check and the resolver put on their errors (a delivery's failure classes read them). */
export const BLOCKED_ADDRESS_CODE = 'ERTM_BLOCKED_ADDRESS';
export const DNS_FAILURE_CODE = 'ERTM_DNS';

export interface HostResolverOptions {
  /** `ip` or `ip:port` of the name servers; default the system's (/etc/resolv.conf). */
  servers?: readonly string[] | undefined;
  /** One query to one server. */
  timeoutMs: number;
  tries: number;
  allowLoopback: boolean;
}

const MIN_TTL_MS = 1_000;
const MAX_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

type Entry = { expires: number; addresses: LookupAddress[] } | { expires: number; addresses: null };

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

export class HostResolver {
  readonly #resolver: Resolver;
  readonly #options: HostResolverOptions;
  readonly #cache = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<Entry>>();

  constructor(options: HostResolverOptions) {
    this.#options = options;
    this.#resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
    if (options.servers?.length) this.#resolver.setServers([...options.servers]);
  }

  /** Every address of `host` (IPv4 first); rejects with code ERTM_DNS or, for localhost, a refusal. */
  async resolve(host: string): Promise<LookupAddress[]> {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost') {
      if (!this.#options.allowLoopback) throw failure(BLOCKED_ADDRESS_CODE, 'loopback is not allowed');
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    }
    const now = Date.now();
    let entry = this.#cache.get(name);
    if (!entry || entry.expires <= now) {
      let pending = this.#pending.get(name);
      if (!pending) {
        pending = this.#query(name).finally(() => this.#pending.delete(name));
        this.#pending.set(name, pending);
      }
      entry = await pending;
    }
    if (!entry.addresses) throw failure(DNS_FAILURE_CODE, 'the host name did not resolve');
    return entry.addresses;
  }

  async #query(name: string): Promise<Entry> {
    const [v4, v6] = await Promise.allSettled([
      this.#bounded(this.#resolver.resolve4(name, { ttl: true })),
      this.#bounded(this.#resolver.resolve6(name, { ttl: true })),
    ]);
    const addresses: LookupAddress[] = [];
    let ttl = MAX_TTL_MS;
    for (const [result, family] of [
      [v4, 4],
      [v6, 6],
    ] as const) {
      if (result.status !== 'fulfilled') continue;
      for (const record of result.value) {
        addresses.push({ address: record.address, family });
        ttl = Math.min(ttl, record.ttl * 1000);
      }
    }
    const entry: Entry =
      addresses.length > 0 ? { addresses, expires: Date.now() + Math.max(MIN_TTL_MS, ttl) } : { addresses: null, expires: Date.now() + NEGATIVE_TTL_MS };
    if (this.#cache.size >= MAX_ENTRIES) this.#evict();
    this.#cache.set(name, entry);
    return entry;
  }

  /** c-ares bounds each query; this bounds the whole look-up should a server misbehave. */
  #bounded<T>(query: Promise<T>): Promise<T> {
    const limit = this.#options.timeoutMs * this.#options.tries * 2 + 100;
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      query,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(failure(DNS_FAILURE_CODE, 'look-up timed out')), limit);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  #evict(): void {
    const now = Date.now();
    for (const [name, entry] of this.#cache) if (entry.expires <= now) this.#cache.delete(name);
    // still full of live entries: drop the oldest half (Map keeps insertion order)
    if (this.#cache.size >= MAX_ENTRIES) {
      let drop = this.#cache.size / 2;
      for (const name of this.#cache.keys()) {
        if (drop-- <= 0) break;
        this.#cache.delete(name);
      }
    }
  }
}

type LookupOptions = { family?: number | string; hints?: number; all?: boolean };
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * `net.connect`'s `lookup` (undici's `connect.lookup`) through `resolver`, filtered through the
 * address policy: a name that resolves to any refused address is refused as a whole (so DNS
 * rebinding cannot reach a private address); `localhost` may reach loopback only, and only when
 * loopback is allowed. A refusal carries the code BLOCKED_ADDRESS_CODE.
 */
export function vettedLookup(resolver: HostResolver, allowLoopback: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    resolver.resolve(hostname).then(
      (addresses) => {
        const local = allowLoopback && hostname.toLowerCase() === 'localhost';
        const refused = addresses.some((entry) => (local ? !isLoopbackAddress(entry.address) : addressRefusal(entry.address) !== null));
        const allowed = addresses.filter((entry) => family === 0 || entry.family === family);
        if (refused || allowed.length === 0) {
          return callback(Object.assign(new Error('address not allowed'), { code: BLOCKED_ADDRESS_CODE }), []);
        }
        if (options.all) return callback(null, allowed);
        callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
