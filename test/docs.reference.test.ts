/**
 * The rendered API reference at /docs on both hosts, and the documents it draws: the page renders
 * the operations in headless Chromium under its strict Content-Security-Policy, logs no error,
 * violates no policy and requests nothing but its own origin; the served documents name the
 * deployment's servers (CONTROL_PUBLIC_URL / REALTIME_PUBLIC_URL, else the request's host as
 * TRUST_PROXY lets the gateway believe it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { request } from './helpers/http.ts';

type Servers = { url: string; variables: Record<string, { default: string }> }[];
interface OpenApiDoc {
  servers: Servers;
  paths: Record<string, { servers: Servers }>;
  info: { license?: { name: string; identifier?: string } };
  externalDocs?: { url: string };
}
interface AsyncApiDoc {
  servers: { realtime: { host: string; protocol: string } };
}

/** A GET with headers fetch would not send as given (Host), answered as parsed JSON. */
function getJson<T>(baseUrl: string, path: string, headers: Record<string, string>): Promise<T> {
  return new Promise((resolve, reject) => {
    get(new URL(path, baseUrl), { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text) as T) : reject(new Error(`${path}: ${res.statusCode} ${text}`))));
    }).on('error', reject);
  });
}

/** The default of each server variable: where the document says the control plane and the edge are. */
function originsOf(doc: OpenApiDoc): { control: string; realtime: string } {
  const defaults = Object.fromEntries(doc.servers.map((server) => [server.url, Object.values(server.variables)[0]!.default]));
  // every path item names the same servers as the document
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const server of item.servers) assert.equal(Object.values(server.variables)[0]!.default, defaults[server.url], path);
  }
  return { control: defaults['{base_url}']!, realtime: defaults['{realtime_url}']! };
}

const portOf = (url: string) => new URL(url).port;

/** Run in the page before its own scripts (playwright injects it, so the page's CSP does not apply to it). */
const CSP_RECORDER = `
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
`;

test('docs - /docs renders the API reference on both hosts, from local files, under a strict CSP', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gateway = cluster.gateways[0]!;
  const browser = await launchBrowser(t);

  for (const [name, base] of [
    ['control plane', gateway.controlUrl],
    ['realtime edge', gateway.realtimeUrl],
  ] as const) {
    await t.test(`${name}: the page renders the operations with no error, no CSP violation and no request elsewhere`, async () => {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (req) => requests.push(req.url()));
      // recorded in the page itself: the events a refused script, style, image or request raises
      await page.addInitScript(CSP_RECORDER);
      const answer = await page.goto(`${base}/docs`);
      assert.equal(answer?.status(), 200);
      const csp = (await answer!.allHeaders())['content-security-policy'] ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /connect-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);

      // the operations, their paths as visible text, grouped under the document's tags
      const operation = page.locator('.opblock-summary-path', { hasText: /^\/v1\/tokens$/ }).first();
      await operation.waitFor({ state: 'visible', timeout: 30_000 });
      // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, whose rendered text is the point
      assert.equal((await operation.innerText()).trim(), '/v1/tokens');
      await page
        .locator('.opblock-summary-path', { hasText: /^\/v1\/channels\/\{channelId\}\/messages$/ })
        .first()
        .waitFor({ state: 'visible' });
      // the licence and the link to the AsyncAPI document, from the document's info and externalDocs
      await page.getByText('MIT', { exact: true }).first().waitFor({ state: 'visible' });
      const asyncapiLinks = page.locator('a[href="/asyncapi.json"]');
      assert.ok((await asyncapiLinks.count()) >= 1, 'the reference links the AsyncAPI document');
      // without "Try it out", nothing the page offers sends a request
      assert.equal(await page.getByRole('button', { name: 'Try it out' }).count(), 0);

      const violations = (await page.evaluate('window.cspViolations')) as string[];
      assert.deepEqual(violations, [], 'no Content-Security-Policy violation');
      browser.assertNoErrors();
      const origin = new URL(base).origin;
      const elsewhere = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
      assert.deepEqual(elsewhere, [], 'every request goes to the gateway itself');
      for (const path of ['/docs', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/reference.js', '/openapi.json']) {
        assert.ok(requests.includes(`${origin}${path}`), `the page loaded ${path}`);
      }
      await page.close();
    });
  }

  await t.test('the files: ETag and 304, gzip when accepted; unknown paths are 404 in the error envelope', async () => {
    const bundle = await fetch(`${gateway.controlUrl}/docs/assets/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(bundle.headers.get('content-encoding'), 'gzip');
    assert.match(await bundle.text(), /SwaggerUIBundle/);
    assert.match(bundle.headers.get('vary') ?? '', /accept-encoding/);
    const etag = bundle.headers.get('etag')!;
    const again = (headers: Record<string, string>) => fetch(`${gateway.controlUrl}/docs/assets/swagger-ui-bundle.js`, { headers });
    assert.equal((await again({ 'if-none-match': etag, 'accept-encoding': 'gzip' })).status, 304);
    // the uncompressed form has its own ETag: a gzip ETag does not revalidate it
    const plain = await again({ 'if-none-match': etag, 'accept-encoding': 'identity' });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.notEqual(plain.headers.get('etag'), etag);
    assert.equal((await again({ 'if-none-match': plain.headers.get('etag')!, 'accept-encoding': 'identity' })).status, 304);
    for (const path of ['/docs/assets/nope.js', '/docs/assets/index.html', '/docs/assets/package.json', '/docs/nope', '/documentation']) {
      for (const base of [gateway.controlUrl, gateway.realtimeUrl]) {
        const res = await request(base, 'GET', path);
        assert.equal(res.status, 404, path);
        assert.equal(res.body.code, 'not_found', path);
        assert.equal(res.headers.get('x-service-error'), 'not_found', path);
      }
    }
  });

  await t.test('the served documents name the host the request came to (TRUST_PROXY off: forwarded headers ignored)', async () => {
    const control = portOf(gateway.controlUrl);
    const realtime = portOf(gateway.realtimeUrl);
    for (const base of [gateway.controlUrl, gateway.realtimeUrl]) {
      const doc = (await request<OpenApiDoc>(base, 'GET', '/openapi.json')).body;
      assert.deepEqual(originsOf(doc), { control: `http://127.0.0.1:${control}`, realtime: `http://127.0.0.1:${realtime}` }, base);
      assert.deepEqual(doc.info.license, { name: 'MIT', identifier: 'MIT' });
      assert.equal(doc.externalDocs?.url, '/asyncapi.json');
    }
    const spoofed = { host: `localhost:${control}`, 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'https' };
    const viaName = await getJson<OpenApiDoc>(gateway.controlUrl, '/openapi.json', spoofed);
    assert.deepEqual(originsOf(viaName), { control: `http://localhost:${control}`, realtime: `http://localhost:${realtime}` });
    const edge = await getJson<OpenApiDoc>(gateway.realtimeUrl, '/openapi.json', { host: `localhost:${realtime}` });
    assert.deepEqual(originsOf(edge), { control: `http://localhost:${control}`, realtime: `http://localhost:${realtime}` });
    const asyncapi = await getJson<AsyncApiDoc>(gateway.controlUrl, '/asyncapi.json', spoofed);
    assert.deepEqual(asyncapi.servers.realtime, { ...asyncapi.servers.realtime, host: `localhost:${realtime}`, protocol: 'ws' });
  });

  await t.test("CONTROL_PUBLIC_URL and REALTIME_PUBLIC_URL win; unset, a trusted proxy's X-Forwarded-Host and -Proto decide", async () => {
    const configured = await cluster.start('gateway', { CONTROL_PUBLIC_URL: 'https://api.example.com', REALTIME_PUBLIC_URL: 'wss://rt.example.com:8443' });
    for (const base of [configured.controlUrl, configured.realtimeUrl]) {
      const doc = (await request<OpenApiDoc>(base, 'GET', '/openapi.json')).body;
      assert.deepEqual(originsOf(doc), { control: 'https://api.example.com', realtime: 'https://rt.example.com:8443' }, base);
      const asyncapi = (await request<AsyncApiDoc>(base, 'GET', '/asyncapi.json')).body;
      assert.equal(asyncapi.servers.realtime.host, 'rt.example.com:8443');
      assert.equal(asyncapi.servers.realtime.protocol, 'wss');
    }

    const proxied = await cluster.start('gateway', { TRUST_PROXY: 'true', CONTROL_PUBLIC_URL: 'https://api.example.com' });
    const forwarded = { 'x-forwarded-host': 'rt.example.com', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
    const doc = await getJson<OpenApiDoc>(proxied.realtimeUrl, '/openapi.json', forwarded);
    assert.deepEqual(originsOf(doc), { control: 'https://api.example.com', realtime: 'https://rt.example.com' });
    const asyncapi = await getJson<AsyncApiDoc>(proxied.realtimeUrl, '/asyncapi.json', forwarded);
    assert.equal(asyncapi.servers.realtime.host, 'rt.example.com');
    assert.equal(asyncapi.servers.realtime.protocol, 'wss');
  });
});
