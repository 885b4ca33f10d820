import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';

// [url, the stored (WHATWG-normalised) form]
const ALLOWED: [string, string][] = [
  ['https://example.com/hooks', 'https://example.com/hooks'],
  ['https://hooks.example.com:8443/path?x=1', 'https://hooks.example.com:8443/path?x=1'],
  ['HTTPS://Example.COM/Hooks', 'https://example.com/Hooks'],
  ['http://localhost:3000/hooks', 'http://localhost:3000/hooks'],
  ['http://LOCALHOST:3000/hooks', 'http://localhost:3000/hooks'],
  ['https://localhost/hooks', 'https://localhost/hooks'],
  ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
  ['http://[::1]:9000/in', 'http://[::1]:9000/in'],
  ['https://93.184.216.34/hook', 'https://93.184.216.34/hook'],
  ['https://[2606:2800:220:1:248:1893:25c8:1946]/', 'https://[2606:2800:220:1:248:1893:25c8:1946]/'],
];

// [url, what the reason must name]
const REFUSED: [string, RegExp][] = [
  ['http://example.com/hooks', /https/],
  ['ftp://example.com/hooks', /scheme/],
  ['javascript:alert(1)', /scheme/],
  ['not a url', /URL/],
  ['/relative/path', /URL/],
  ['http://[::1]:port/', /URL/],
  ['https://user:pass@example.com/', /userinfo/],
  ['https://user@example.com/', /userinfo/],
  ['https://10.0.0.1/', /private/],
  ['http://10.1.2.3:8080/', /private/],
  ['https://172.16.0.1/', /private/],
  ['https://172.31.255.255/', /private/],
  ['https://192.168.1.1/', /private/],
  ['https://169.254.169.254/latest/meta-data', /link-local/],
  ['https://0xa9.0xfe.0xa9.0xfe/', /link-local/],
  ['https://127.0.0.2/', /loopback/],
  ['http://0x7f000001/', /loopback/],
  ['http://2130706433/', /loopback/],
  ['http://0177.0.0.1/', /loopback/],
  ['http://127.1/', /loopback/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://[::]/', /unspecified/],
  ['https://[::ffff:10.0.0.1]/', /private/],
  ['https://[::ffff:127.0.0.1]/', /loopback/],
  ['https://[::ffff:169.254.1.1]/', /link-local/],
  ['https://[fe80::1]/', /link-local/],
  ['https://[fc00::1]/', /unique-local/],
  ['https://[fd12:3456::1]/', /unique-local/],
  ['https://[::127.0.0.1]/', /IPv4-compatible/],
  ['https://metadata.google.internal/', /\.internal/],
  ['https://service.internal./', /\.internal/],
  ['https://service.internal../', /\.internal/],
  ['https://localhost../', /\.localhost/],
  ['https://app.localhost/', /\.localhost/],
  ['http://localhost./', /\.localhost/],
  ['https://100.64.0.1/', /carrier-grade NAT/],
  ['https://224.0.0.1/', /multicast/],
];

test('webhooks - URL validation: the table of allowed and refused URLs; nothing stored on refusal', async (t) => {
  assert.ok(ALLOWED.length + REFUSED.length >= 30);
  const cluster = await startCluster(t, { gateways: 1 });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);

  for (const [url, stored] of ALLOWED) {
    const res = await api.put('/v1/config', { webhooks: { url } });
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.config.webhooks.url, stored, url);
  }
  const before = await cluster.db.pool.query('select count(*)::int as n from config_deployments');
  const last = await api.get('/v1/config');

  for (const [url, rule] of REFUSED) {
    const res = await api.put('/v1/config', { webhooks: { url } });
    assert.equal(res.status, 422, `${url} should be refused: ${JSON.stringify(res.body)}`);
    assert.equal(errorCode(res), 'invalid_webhook_url');
    assert.match(res.body.reason, rule, `${url}: ${res.body.reason}`);
  }

  const after = await cluster.db.pool.query('select count(*)::int as n from config_deployments');
  assert.equal(after.rows[0].n, before.rows[0].n, 'a refused deploy stores nothing');
  assert.deepEqual((await api.get('/v1/config')).body, last.body, 'the active configuration is unchanged');
  const environment = await cluster.db.pool.query('select webhook_url from environments where id = $1', [env.environmentId]);
  assert.equal(environment.rows[0].webhook_url, ALLOWED[ALLOWED.length - 1]![1]);

  // a URL that is not a string, or an unknown field: 400, not 422
  assert.equal(errorCode(await api.put('/v1/config', { webhooks: { url: 42 } })), 'invalid_request');
  assert.equal(errorCode(await api.put('/v1/config', { webhooks: { url: 'https://example.com', extra: 1 } })), 'invalid_request');
  assert.equal(errorCode(await api.put('/v1/config', { hooks: {} })), 'invalid_request');
});
