/**
 * Where webhooks may be sent. One policy, applied twice: at deploy time to the URL as written,
 * and at send time to every address the host resolves to (so a name that later resolves to a
 * private address, DNS rebinding, is still refused).
 *
 * Rules:
 * - the URL is parsed with the WHATWG parser first, so `0x7f000001`, `2130706433`,
 *   `0177.0.0.1` and `[::ffff:10.0.0.1]` are judged by the address they mean;
 * - the hosts `localhost`, `127.0.0.1` and `[::1]`, written exactly so, are allowed with `http`
 *   or `https` (local development) only when the operator allows loopback
 *   (`WEBHOOK_ALLOW_LOOPBACK`, off by default: a production dispatcher must never POST to its
 *   own host's services); an encoded spelling of them never is;
 * - every other address must be public unicast: loopback, private, link-local, unique-local,
 *   unspecified, carrier-grade NAT, multicast, broadcast, reserved, and IPv6 forms that embed an
 *   IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are refused;
 * - host names ending in `.internal` or `.localhost` are refused;
 * - other hosts need `https`; userinfo (`user:pass@`) is refused.
 */
import ipaddr from 'ipaddr.js';

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

export interface UrlPolicyOptions {
  /** Whether `localhost`, `127.0.0.1` and `[::1]` (written so) are allowed. */
  allowLoopback: boolean;
}

/** Hosts allowed as written, with http or https, and the addresses they may connect to. */
const NAMED_LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
  linkLocal: 'a link-local address (169.254.0.0/16, fe80::/10)',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  unspecified: 'an unspecified address (0.0.0.0/8, ::)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  rfc6052: 'a NAT64 IPv6 address (64:ff9b::/96)',
  '6to4': 'a 6to4 IPv6 address (2002::/16)',
  teredo: 'a Teredo IPv6 address (2001::/32)',
};

/** The host exactly as the caller wrote it (lowercased), before any normalisation. */
function writtenHost(text: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\\]*@)?(\[[^\]/?#]*\]|[^:/?#\\]*)/i.exec(text.trim());
  return match?.[1]?.toLowerCase();
}

/**
 * Why an address is not a public unicast address, or null when it is. IPv6 forms that embed an
 * IPv4 address are named by the IPv4 address they carry.
 */
export function addressRefusal(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return `"${address}" is not an IP address`;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      const inner = v6.toIPv4Address();
      const innerReason = addressRefusal(inner.toString());
      return innerReason ?? `${RANGE_NAMES.ipv4Mapped} (${v6.toString()})`;
    }
    // ::a.b.c.d, the deprecated IPv4-compatible form (:: and ::1 are judged as themselves)
    if (v6.parts.slice(0, 6).every((part) => part === 0) && v6.range() === 'unicast') {
      return `an IPv4-compatible IPv6 address (${v6.toString()})`;
    }
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  return `${RANGE_NAMES[range] ?? `an address in the ${range} range`} (${parsed.toString()})`;
}

/** True for the addresses the named local hosts may connect to. */
export function isLoopbackAddress(address: string): boolean {
  try {
    const parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
    return parsed.range() === 'loopback';
  } catch {
    return false;
  }
}

/** True when the URL's host is one of the named local hosts (allowed on loopback, with http). */
export function isNamedLocalHost(url: URL): boolean {
  return NAMED_LOCAL_HOSTS.has(url.hostname);
}

/** Deploy-time (and send-time) check of a webhook URL. */
export function checkWebhookUrl(text: string, options: UrlPolicyOptions): UrlVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `scheme ${url.protocol.replace(/:$/, '')} is not allowed; use https` };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'userinfo (user:password@) is not allowed' };
  const host = url.hostname;
  if (host === '') return { ok: false, reason: 'the URL has no host' };
  const written = writtenHost(text);
  const named = NAMED_LOCAL_HOSTS.has(host) && written === host;
  if (named) {
    if (options.allowLoopback) return { ok: true, url };
    return { ok: false, reason: `host ${host} is a loopback host; this deployment does not send webhooks to loopback` };
  }

  const isV6 = host.startsWith('[');
  const isV4 = !isV6 && ipaddr.IPv4.isValidFourPartDecimal(host);
  if (isV4 || isV6) {
    const refusal = addressRefusal(host);
    if (refusal) {
      const spelled = written && written !== host ? ` (written ${written})` : '';
      const hint = NAMED_LOCAL_HOSTS.has(host) && options.allowLoopback ? '; only localhost, 127.0.0.1 or [::1] written so are allowed' : '';
      return { ok: false, reason: `host ${host}${spelled} is ${refusal}${hint}` };
    }
  } else {
    const name = host.replace(/\.+$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      const hint = options.allowLoopback ? '; only localhost, 127.0.0.1 or [::1] are allowed' : '';
      return { ok: false, reason: `host ${host} is a .localhost name${hint}` };
    }
    if (name === 'internal' || name.endsWith('.internal')) {
      return { ok: false, reason: `host ${host} is an .internal name` };
    }
  }
  if (url.protocol !== 'https:') {
    const hint = options.allowLoopback ? ' (http is allowed only for localhost, 127.0.0.1 and [::1])' : '';
    return { ok: false, reason: `scheme must be https${hint}` };
  }
  return { ok: true, url };
}
