import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGatewayConfig } from '@rtm/config';
import { RealtimeEndpoint } from '../../apps/gateway/src/http/realtime-endpoint.ts';

const BASE = { DATABASE_URL: 'postgres://localhost/x', NATS_URL: 'nats://127.0.0.1:4222' };

test('the realtime origin: the request\'s host name with the listening port, ws or wss after the scheme', () => {
  const endpoint = new RealtimeEndpoint(undefined, 8081);
  assert.equal(endpoint.originFor({ protocol: 'http', host: 'localhost:8080' }), 'ws://localhost:8081');
  assert.equal(endpoint.originFor({ protocol: 'https', host: 'dash.example.com' }), 'wss://dash.example.com:8081');
  assert.equal(endpoint.originFor({ protocol: 'http', host: '[::1]:8080' }), 'ws://[::1]:8081');
  endpoint.listening(40123);
  assert.equal(endpoint.originFor({ protocol: 'http', host: '127.0.0.1:9' }), 'ws://127.0.0.1:40123', 'the port it really listens on');
});

test('an unusable Host names no origin', () => {
  const endpoint = new RealtimeEndpoint(undefined, 8081);
  for (const host of ['', 'evil.com/path', 'a b', 'user@host', 'host?x']) {
    assert.equal(endpoint.originFor({ protocol: 'http', host }), null, JSON.stringify(host));
  }
});

test('REALTIME_PUBLIC_URL wins over the request, normalised to a ws(s) origin', () => {
  for (const [value, origin] of [
    ['https://rt.example.com', 'wss://rt.example.com'],
    ['http://localhost:9000/', 'ws://localhost:9000'],
    ['wss://rt.example.com:8443', 'wss://rt.example.com:8443'],
  ] as const) {
    const config = loadGatewayConfig({ ...BASE, REALTIME_PUBLIC_URL: value });
    assert.equal(config.REALTIME_PUBLIC_URL, origin, value);
    const endpoint = new RealtimeEndpoint(config.REALTIME_PUBLIC_URL, 8081);
    assert.equal(endpoint.originFor({ protocol: 'http', host: 'other.example.com:8080' }), origin);
  }
  assert.equal(loadGatewayConfig({ ...BASE }).REALTIME_PUBLIC_URL, undefined);
  for (const bad of ['rt.example.com', 'ftp://rt.example.com', 'https://rt.example.com/path', 'https://u:p@rt.example.com', 'https://rt.example.com/?x=1']) {
    assert.throws(() => loadGatewayConfig({ ...BASE, REALTIME_PUBLIC_URL: bad }), /REALTIME_PUBLIC_URL/, bad);
  }
});
