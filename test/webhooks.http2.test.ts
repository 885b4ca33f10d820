import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { enqueue, publishedEvent, deliveredCount } from './helpers/webhook-receiver.ts';
import { eventually } from './helpers/eventually.ts';

test('webhooks - an https receiver that offers HTTP/2 gets its deliveries over HTTP/2', async (t) => {
  // a certificate for localhost, trusted by the dispatcher (NODE_EXTRA_CA_CERTS)
  const dir = mkdtempSync(join(tmpdir(), 'rtm-h2-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    { stdio: 'ignore' },
  );

  // HTTP/2 only: a delivery that arrives at all arrived over HTTP/2
  const versions: string[] = [];
  const ids: string[] = [];
  const server = createSecureServer({ key: readFileSync(key), cert: readFileSync(cert), allowHTTP1: false }, (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      versions.push(req.httpVersion);
      ids.push((JSON.parse(body) as { id: string }).id);
      res.writeHead(204).end();
    });
  });
  const sessions = new Set<import('node:http2').ServerHttp2Session>();
  server.on('session', (session) => sessions.add(session));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    // the dispatcher keeps its HTTP/2 connection open: close ends only once the sessions are gone
    for (const session of sessions) session.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const port = (server.address() as AddressInfo).port;

  const cluster = await startCluster(t, { gateways: 1, dispatchers: 1, env: { NODE_EXTRA_CA_CERTS: cert } });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  assert.equal((await api.put('/v1/config', { webhooks: { url: `https://localhost:${port}/hooks` } })).status, 200);
  const events = Array.from({ length: 20 }, (_, i) => publishedEvent(env.environmentId, `h2-${i % 4}`, { i }));
  assert.equal(await enqueue(cluster.db.pool, events), 20);
  await eventually('20 deliveries over HTTP/2', async () => ids.length >= 20, 20_000);
  assert.deepEqual(new Set(versions), new Set(['2.0']));
  assert.deepEqual([...new Set(ids)].sort(), events.map((e) => e.eventId).sort());
  await eventually('every delivery recorded as delivered', async () => (await deliveredCount(cluster.db.pool, env.environmentId)) === 20);
});
