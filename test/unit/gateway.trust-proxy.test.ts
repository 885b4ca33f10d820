import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { isLoopbackHost, trustProxyOption, trustProxyWarning, type TrustProxy } from '../../apps/gateway/src/http/trust-proxy.ts';

/** The client address and protocol fastify derives for one request under a TRUST_PROXY value. */
async function seen(value: TrustProxy, remoteAddress: string, headers: Record<string, string>) {
  const app = Fastify({ trustProxy: trustProxyOption(value) });
  app.get('/', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  const res = await app.inject({ method: 'GET', url: '/', remoteAddress, headers });
  await app.close();
  return res.json() as { ip: string; protocol: string };
}

const spoofed = { 'x-forwarded-for': '198.51.100.66, 203.0.113.7', 'x-forwarded-proto': 'https' };

test('trust proxy - true believes exactly one hop: the right-most X-Forwarded-For entry, never a spoofed left-most one', async () => {
  assert.deepEqual(await seen(true, '10.0.0.2', spoofed), { ip: '203.0.113.7', protocol: 'https' });
  assert.deepEqual(await seen(true, '10.0.0.2', { 'x-forwarded-for': '203.0.113.7' }), { ip: '203.0.113.7', protocol: 'http' });
  assert.deepEqual(await seen(true, '10.0.0.2', {}), { ip: '10.0.0.2', protocol: 'http' });
});

test('trust proxy - false believes nothing; a hop count believes that many; a CIDR list every hop from it', async () => {
  assert.deepEqual(await seen(false, '10.0.0.2', spoofed), { ip: '10.0.0.2', protocol: 'http' });
  assert.equal((await seen(0, '10.0.0.2', spoofed)).ip, '10.0.0.2');
  assert.equal((await seen(2, '10.0.0.2', { 'x-forwarded-for': '198.51.100.66, 203.0.113.7, 10.0.0.9' })).ip, '203.0.113.7');
  // the list: hops from 10.0.0.0/8 are proxies, the first address from the right outside it is the client
  assert.equal((await seen(['10.0.0.0/8'], '10.0.0.2', { 'x-forwarded-for': '198.51.100.66, 203.0.113.7, 10.0.0.9' })).ip, '203.0.113.7');
  // a peer outside the list is the client itself, whatever it claims
  assert.equal((await seen(['10.0.0.0/8'], '192.0.2.1', spoofed)).ip, '192.0.2.1');
});

test('trust proxy - the start-up warning: true, in production, on a listener other machines reach', () => {
  assert.match(trustProxyWarning(true, 'production', '0.0.0.0') ?? '', /TRUST_PROXY=true on a public listener/);
  assert.match(trustProxyWarning(true, 'production', '::') ?? '', /public listener/);
  assert.equal(trustProxyWarning(true, 'development', '0.0.0.0'), null);
  assert.equal(trustProxyWarning(true, 'production', '127.0.0.1'), null);
  assert.equal(trustProxyWarning(['10.0.0.0/8'], 'production', '0.0.0.0'), null);
  assert.equal(trustProxyWarning(1, 'production', '0.0.0.0'), null);
  assert.equal(trustProxyWarning(false, 'production', '0.0.0.0'), null);
  assert.deepEqual(['127.0.0.1', '127.1.2.3', '::1', 'localhost', '0.0.0.0', '::', '10.0.0.1'].map(isLoopbackHost), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});
