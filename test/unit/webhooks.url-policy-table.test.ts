/**
 * The webhook URL policy beyond loopback (webhooks.url-policy-loopback.test.ts has that): which
 * URLs a deployment may send webhooks to, and why the others are refused. Pure functions only,
 * no DNS: checkWebhookUrl for the URL as written, addressRefusal for the addresses a host
 * resolves to at send time. Rules pinned: https only (http only for the named local hosts),
 * no userinfo, no other scheme; public unicast addresses only, however the address is spelled
 * (private 10/8, 172.16/12, 192.168/16, link-local 169.254/16 and fe80::/10, unique-local
 * fc00::/7, CGNAT, unspecified, multicast, broadcast, IPv6 forms embedding IPv4); no `.internal`
 * or `.localhost` names; no rule on ports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addressRefusal, checkWebhookUrl, isLoopbackAddress } from '@rtm/rules';

/** Reason codes: what a refusal's text must say. */
const REASON = {
  scheme: /^scheme \S+ is not allowed; use https$/,
  https: /^scheme must be https/,
  userinfo: /userinfo/,
  notUrl: /not an absolute URL/,
  loopback: /loopback/,
  private: /a private address \(10\.0\.0\.0\/8, 172\.16\.0\.0\/12, 192\.168\.0\.0\/16\)/,
  linkLocal: /a link-local address/,
  uniqueLocal: /a unique-local address \(fc00::\/7\)/,
  cgnat: /carrier-grade NAT/,
  unspecified: /an unspecified address/,
  multicast: /a multicast address/,
  broadcast: /the broadcast address/,
  mapped: /an IPv4-mapped IPv6 address/,
  compatible: /an IPv4-compatible IPv6 address/,
  nat64: /a NAT64 IPv6 address/,
  sixToFour: /a 6to4 IPv6 address/,
  teredo: /a Teredo IPv6 address/,
  internal: /an \.internal name/,
  localhostName: /a \.localhost name/,
} as const;
type Expected = 'ok' | keyof typeof REASON;

/** URL → verdict, with loopback off (the production setting). */
const TABLE: [string, Expected][] = [
  // schemes and credentials
  ['https://example.com/hooks', 'ok'],
  ['http://example.com/hooks', 'https'],
  ['ftp://example.com/', 'scheme'],
  ['file:///etc/passwd', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['gopher://example.com/', 'scheme'],
  ['ws://example.com/', 'scheme'],
  ['not a url', 'notUrl'],
  ['/relative/hooks', 'notUrl'],
  ['https://user:pass@example.com/', 'userinfo'],
  ['https://user@example.com/', 'userinfo'],
  ['https://:pass@example.com/', 'userinfo'],
  // ports: no rule, any port of an allowed host (and https on port 80 is still https)
  ['https://example.com:8443/x', 'ok'],
  ['https://example.com:80/', 'ok'],
  ['http://example.com:443/', 'https'],
  // public addresses and the edges of the private ranges
  ['https://93.184.216.34/', 'ok'],
  ['https://[2606:4700:4700::1111]/', 'ok'],
  ['https://example.com./', 'ok'],
  ['https://10.0.0.1/', 'private'],
  ['https://10.255.255.255/', 'private'],
  ['https://9.255.255.255/', 'ok'],
  ['https://11.0.0.0/', 'ok'],
  ['https://172.16.0.1/', 'private'],
  ['https://172.31.255.255/', 'private'],
  ['https://172.15.255.255/', 'ok'],
  ['https://172.32.0.1/', 'ok'],
  ['https://192.168.0.1/', 'private'],
  ['https://192.168.255.255/', 'private'],
  ['https://192.169.0.1/', 'ok'],
  ['https://169.254.169.254/latest/meta-data', 'linkLocal'],
  ['https://169.254.0.1/', 'linkLocal'],
  ['https://100.64.0.1/', 'cgnat'],
  ['https://0.0.0.0/', 'unspecified'],
  ['https://224.0.0.1/', 'multicast'],
  ['https://255.255.255.255/', 'broadcast'],
  ['https://127.0.0.2/', 'loopback'],
  // other spellings of a private address are judged by the address they mean
  ['https://0x0a000001/', 'private'],
  ['https://167772161/', 'private'],
  ['https://10.1/', 'private'],
  ['https://012.0.0.1/', 'private'],
  // IPv6
  ['https://[0:0:0:0:0:0:0:1]/', 'loopback'], // ::1 spelled out is not the named host [::1]
  ['https://[::]/', 'unspecified'],
  ['https://[fc00::1]/', 'uniqueLocal'],
  ['https://[fdff:ffff::1]/', 'uniqueLocal'],
  ['https://[fe80::1]/', 'linkLocal'],
  ['https://[febf::1]/', 'linkLocal'],
  ['https://[ff02::1]/', 'multicast'],
  // IPv6 forms embedding IPv4: named by the IPv4 address they carry, refused even when it is public
  ['https://[::ffff:10.0.0.1]/', 'private'],
  ['https://[::ffff:192.168.1.1]/', 'private'],
  ['https://[::ffff:169.254.169.254]/', 'linkLocal'],
  ['https://[::ffff:a00:1]/', 'private'],
  ['https://[::ffff:8.8.8.8]/', 'mapped'],
  ['https://[::8.8.8.8]/', 'compatible'],
  ['https://[64:ff9b::a00:1]/', 'nat64'],
  ['https://[2002:a00:1::]/', 'sixToFour'],
  ['https://[2001::1]/', 'teredo'],
  // names
  ['https://metadata.google.internal/', 'internal'],
  ['https://internal/', 'internal'],
  ['https://foo.localhost/', 'localhostName'],
  ['https://foo.localhost./', 'localhostName'],
];

test('url policy table - each URL is allowed or refused with its reason', () => {
  for (const [url, expected] of TABLE) {
    const verdict = checkWebhookUrl(url, { allowLoopback: false });
    if (expected === 'ok') {
      assert.equal(verdict.ok, true, `${url}: ${verdict.ok ? '' : verdict.reason}`);
    } else {
      assert.equal(verdict.ok, false, `${url} should be refused (${expected})`);
      if (!verdict.ok) assert.match(verdict.reason, REASON[expected], url);
    }
  }
});

test('url policy table - allowing loopback opens only the named local hosts, nothing in the table', () => {
  for (const [url, expected] of TABLE) {
    assert.equal(checkWebhookUrl(url, { allowLoopback: true }).ok, expected === 'ok', url);
  }
  // named local hosts are matched case-insensitively, and may use http
  assert.equal(checkWebhookUrl('http://LOCALHOST:3000/', { allowLoopback: true }).ok, true);
  const encoded = checkWebhookUrl('http://127.1/', { allowLoopback: true });
  assert.ok(!encoded.ok && /written 127\.1/.test(encoded.reason) && /written so are allowed/.test(encoded.reason));
});

test('url policy table - send-time addresses (what DNS returned): public unicast only', () => {
  const ADDRESSES: [string, Expected][] = [
    ['8.8.8.8', 'ok'],
    ['2606:4700:4700::1111', 'ok'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['fd00::5', 'uniqueLocal'],
    ['fe80::abcd', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'mapped'],
    ['[::ffff:127.0.0.1]', 'loopback'],
  ];
  for (const [address, expected] of ADDRESSES) {
    const refusal = addressRefusal(address);
    if (expected === 'ok') assert.equal(refusal, null, address);
    else assert.match(refusal ?? 'null', REASON[expected], address);
  }
  assert.match(addressRefusal('example.com')!, /not an IP address/);
  // the named local hosts may connect to loopback addresses only (mapped forms included)
  for (const a of ['127.0.0.1', '127.5.5.5', '::1', '[::1]', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(a), true, a);
  for (const a of ['10.0.0.1', '8.8.8.8', 'fe80::1', 'localhost']) assert.equal(isLoopbackAddress(a), false, a);
});

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));

test('url policy table - for any IPv4: the URL passes iff the address is public, and no mapped IPv6 form passes', () => {
  fc.assert(
    fc.property(ipv4, (v4) => {
      const refusal = addressRefusal(v4);
      const [a, b] = v4.split('.').map(Number) as [number, number];
      const privateRange = a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || a === 127;
      if (privateRange) assert.notEqual(refusal, null, v4);
      if (v4 !== '127.0.0.1') assert.equal(checkWebhookUrl(`https://${v4}/`, { allowLoopback: false }).ok, refusal === null, v4);
      const mapped = addressRefusal(`::ffff:${v4}`);
      assert.notEqual(mapped, null, `::ffff:${v4}`);
      if (refusal !== null) assert.equal(mapped, refusal, 'a mapped address is refused for the IPv4 address it carries');
      assert.equal(checkWebhookUrl(`https://[::ffff:${v4}]/`, { allowLoopback: true }).ok, false);
    }),
    { numRuns: 1_000 },
  );
});
