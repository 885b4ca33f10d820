/**
 * Which proxies the public listeners believe about the client (`X-Forwarded-For`, and
 * `X-Forwarded-Proto` / `X-Forwarded-Host`), from TRUST_PROXY:
 * - `false` (the default): none; the client is the connection's address;
 * - `true`: exactly one hop, the proxy that connects to us: the right-most `X-Forwarded-For`
 *   entry is the client. Entries to its left were written by whoever sent the request to that
 *   proxy and are never believed (a client can put any address there);
 * - a hop count `n`: the `n` proxies nearest to us; the `n`-th entry from the right is the client;
 * - a list of addresses/CIDRs: every hop from one of them is believed, and the client is the
 *   right-most entry not from the list.
 * docs/operations.md ("Behind a proxy") says which to choose.
 */
import { isIP } from 'node:net';

export type TrustProxy = boolean | number | string[];
export type TrustFunction = (address: string, hop: number) => boolean;

/** Believes the `count` hops nearest to us (hop 0 is the connection's own address). */
export function hops(count: number): TrustFunction {
  return (_address, hop) => hop < count;
}

/** The `trustProxy` option of fastify for a TRUST_PROXY value. */
export function trustProxyOption(value: TrustProxy): false | TrustFunction | string[] {
  if (value === false) return false;
  // fastify's own `true` believes every hop: the left-most entry, which the client writes
  if (value === true) return hops(1);
  if (typeof value === 'number') return value === 0 ? false : hops(value);
  return value;
}

/** Whether a bind address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The start-up warning for a risky TRUST_PROXY, or null: in production, `true` on a listener
 * reachable from other machines believes whatever connects directly, so a client that reaches
 * the gateway without the proxy picks its own address for every per-address limit.
 */
export function trustProxyWarning(value: TrustProxy, nodeEnv: string, host: string): string | null {
  if (value !== true || nodeEnv !== 'production' || isLoopbackHost(host)) return null;
  return (
    `TRUST_PROXY=true on a public listener (${host}): the right-most X-Forwarded-For entry is believed from any ` +
    'peer, so a client that reaches the gateway directly chooses its own address for per-address limits; set ' +
    "TRUST_PROXY to the proxy's addresses/CIDRs, or make sure only the proxy can connect"
  );
}
