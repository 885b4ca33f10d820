/**
 * The key a per-address limit counts a client under. An IPv4 address is its own key; an IPv6
 * address is keyed by its /64, since one subscriber, host or virtual machine is routinely handed
 * a whole /64 and can use any of its 2^64 addresses: counted exactly, one client would be a
 * crowd. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as a dual-stack socket reports an IPv4
 * peer) is keyed as the IPv4 address. Anything that does not parse as an address (a placeholder
 * such as `unknown`) is keyed as itself.
 */
import ipaddr from 'ipaddr.js';

/** The prefix length an IPv6 client is grouped by. */
export const IPV6_CLIENT_PREFIX = 64;

export function clientAddressKey(address: string): string {
  // a zone (`fe80::1%eth0`) names an interface of this host, not another client
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, IPV6_CLIENT_PREFIX / 16).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/${IPV6_CLIENT_PREFIX}`;
}
