import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loadBaseConfig } from '@rtm/config';
import { assetOf } from '../../apps/gateway/src/http/built-assets.ts';
import { assetEncoding, compressibleAsset, encodedBody, encodedEtag } from '../../apps/gateway/src/http/compression.ts';

test('the encoding of a file: brotli before gzip, as Accept-Encoding allows', () => {
  const cases: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['deflate', undefined],
  ];
  for (const [header, expected] of cases) assert.equal(assetEncoding(header), expected, String(header));
  assert.equal(assetEncoding(['deflate', 'gzip']), 'gzip');
});

test('text of 1 KiB or more is worth compressing; images and small files are not', () => {
  const big = Buffer.alloc(2048, 'a');
  assert.equal(compressibleAsset({ body: big, type: 'application/json; charset=utf-8' }), true);
  assert.equal(compressibleAsset({ body: big, type: 'text/javascript; charset=utf-8' }), true);
  assert.equal(compressibleAsset({ body: big, type: 'image/png' }), false);
  assert.equal(compressibleAsset({ body: Buffer.alloc(1023, 'a'), type: 'text/css' }), false);
});

test('each encoding has its own ETag, and its bytes are made once', async () => {
  const asset = assetOf(Buffer.from(JSON.stringify({ text: 'x'.repeat(5000) })), 'application/json');
  assert.equal(encodedEtag(asset.etag, undefined), asset.etag);
  assert.equal(encodedEtag('"abc"', 'br'), '"abc-br"');
  const br = encodedBody(asset, 'br');
  assert.equal(encodedBody(asset, 'br'), br, 'the same promise: compressed once');
  assert.deepEqual(brotliDecompressSync(await br), asset.body);
  assert.deepEqual(gunzipSync(await encodedBody(asset, 'gzip')), asset.body);
});

test('HOST: loopback by default; an IP address or a host name', () => {
  assert.equal(loadBaseConfig({}).HOST, '127.0.0.1');
  for (const host of ['0.0.0.0', '::', '10.1.2.3', 'gateway-1.internal']) assert.equal(loadBaseConfig({ HOST: host }).HOST, host);
  for (const host of ['', 'http://x', 'a b', '0.0.0.0:80']) assert.throws(() => loadBaseConfig({ HOST: host }), /HOST/, host);
});
