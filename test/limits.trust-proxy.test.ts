import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { request } from './helpers/http.ts';

/** Waits for the start of a one-second window, so a short burst falls inside one window. */
async function windowStart(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
  return Math.floor(Date.now() / 1_000);
}

test('trust proxy - with TRUST_PROXY=true a spoofed left-most X-Forwarded-For entry does not escape the per-address mint limit', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, env: { TRUST_PROXY: 'true' } });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('proxied');
  const deployed = await request(gateway.controlUrl, 'PUT', '/v1/config', {
    token: env.secretKey,
    body: { limits: { anonymousMintsPerIpPerSecond: 3, anonymousMintsPerKeyPerSecond: 1000 } },
  });
  assert.equal(deployed.status, 200);

  // as a proxy forwards it: whatever the client wrote, then the address the proxy saw (right-most)
  const mint = (spoofed: string, client: string) =>
    request(gateway.controlUrl, 'POST', '/v1/tokens/anonymous', {
      headers: { 'x-service-key': env.publishableKey, 'x-forwarded-for': `${spoofed}, ${client}` },
    });

  for (let attempt = 0; ; attempt++) {
    const window = await windowStart();
    // one client, each request with a different made-up left-most entry
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => mint(`198.51.100.${i + 1}`, '203.0.113.7')));
    // another client behind the same proxy still has its own share
    const other = await mint('198.51.100.1', '203.0.113.8');
    if (Math.floor(Date.now() / 1_000) !== window && attempt < 4) continue;
    assert.equal(burst.filter((res) => res.status === 201).length, 3, `statuses ${burst.map((res) => res.status).join(',')}`);
    const refused = burst.filter((res) => res.status === 429);
    assert.equal(refused.length, 9);
    assert.ok(refused.every((res) => /anonymousMintsPerIpPerSecond/.test(res.body.reason ?? '')));
    assert.equal(other.status, 201, JSON.stringify(other.body));
    break;
  }

  // a production gateway with TRUST_PROXY=true on public listeners (HOST=0.0.0.0: every
  // interface) says so at start-up; on loopback, HOST's default, nothing else can connect
  const production = { NODE_ENV: 'production', SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
  const risky = await cluster.start('gateway', { ...production, TRUST_PROXY: 'true', HOST: '0.0.0.0' });
  const warning = risky.output.find((line) => line.includes('TRUST_PROXY=true on a public listener'));
  assert.ok(warning, `no start-up warning in:\n${risky.output.slice(0, 40).join('\n')}`);
  assert.equal(JSON.parse(warning).level, 40, 'logged as a warning');
  const listed = await cluster.start('gateway', { ...production, TRUST_PROXY: '127.0.0.1/8', HOST: '0.0.0.0' });
  assert.ok(!listed.output.some((line) => line.includes('TRUST_PROXY=true')), 'a list of proxies is not warned about');
});
