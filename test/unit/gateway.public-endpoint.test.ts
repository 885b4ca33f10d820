import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGatewayConfig } from '@rtm/config';
import { PublicEndpoint } from '../../apps/gateway/src/http/public-endpoint.ts';

const BASE = { DATABASE_URL: 'postgres://localhost/x', NATS_URL: 'nats://127.0.0.1:4222' };

test("the realtime origin: the request's host name with the listening port, ws or wss after the scheme", () => {
  const endpoint = new PublicEndpoint(undefined, 8081);
  assert.equal(endpoint.wsOriginFor({ protocol: 'http', host: 'localhost:8080' }), 'ws://localhost:8081');
  assert.equal(endpoint.wsOriginFor({ protocol: 'https', host: 'dash.example.com' }), 'wss://dash.example.com:8081');
  assert.equal(endpoint.wsOriginFor({ protocol: 'http', host: '[::1]:8080' }), 'ws://[::1]:8081');
  endpoint.listening(40123);
  assert.equal(endpoint.wsOriginFor({ protocol: 'http', host: '127.0.0.1:9' }), 'ws://127.0.0.1:40123', 'the port it really listens on');
});

test("the http origin: the request's own origin on this listener, its host name with the port on the other", () => {
  const endpoint = new PublicEndpoint(undefined, 8080);
  assert.equal(endpoint.httpOriginFor({ protocol: 'http', host: 'localhost:8080' }, true), 'http://localhost:8080');
  assert.equal(endpoint.httpOriginFor({ protocol: 'https', host: 'api.example.com' }, true), 'https://api.example.com', 'as the proxy reports it');
  assert.equal(endpoint.httpOriginFor({ protocol: 'https', host: 'rt.example.com' }), 'https://rt.example.com:8080');
  assert.equal(endpoint.httpOriginFor({ protocol: 'http', host: '[::1]:8081' }), 'http://[::1]:8080');
});

test('an unusable Host names no origin', () => {
  const endpoint = new PublicEndpoint(undefined, 8081);
  for (const host of ['', 'evil.com/path', 'a b', 'user@host', 'host?x']) {
    assert.equal(endpoint.wsOriginFor({ protocol: 'http', host }), null, JSON.stringify(host));
    assert.equal(endpoint.httpOriginFor({ protocol: 'http', host }, true), null, JSON.stringify(host));
  }
});

test('REALTIME_PUBLIC_URL wins over the request, normalised to a ws(s) origin', () => {
  for (const [value, origin, http] of [
    ['https://rt.example.com', 'wss://rt.example.com', 'https://rt.example.com'],
    ['http://localhost:9000/', 'ws://localhost:9000', 'http://localhost:9000'],
    ['wss://rt.example.com:8443', 'wss://rt.example.com:8443', 'https://rt.example.com:8443'],
  ] as const) {
    const config = loadGatewayConfig({ ...BASE, REALTIME_PUBLIC_URL: value });
    assert.equal(config.REALTIME_PUBLIC_URL, origin, value);
    const endpoint = new PublicEndpoint(config.REALTIME_PUBLIC_URL, 8081);
    assert.equal(endpoint.wsOriginFor({ protocol: 'http', host: 'other.example.com:8080' }), origin);
    assert.equal(endpoint.httpOriginFor({ protocol: 'http', host: 'other.example.com:8081' }, true), http);
  }
  assert.equal(loadGatewayConfig({ ...BASE }).REALTIME_PUBLIC_URL, undefined);
  for (const bad of ['rt.example.com', 'ftp://rt.example.com', 'https://rt.example.com/path', 'https://u:p@rt.example.com', 'https://rt.example.com/?x=1']) {
    assert.throws(() => loadGatewayConfig({ ...BASE, REALTIME_PUBLIC_URL: bad }), /REALTIME_PUBLIC_URL/, bad);
  }
});

test('CONTROL_PUBLIC_URL wins over the request, normalised to an http(s) origin; ws(s) is refused', () => {
  for (const [value, origin] of [
    ['https://api.example.com/', 'https://api.example.com'],
    ['http://localhost:9000', 'http://localhost:9000'],
  ] as const) {
    const config = loadGatewayConfig({ ...BASE, CONTROL_PUBLIC_URL: value });
    assert.equal(config.CONTROL_PUBLIC_URL, origin, value);
    const endpoint = new PublicEndpoint(config.CONTROL_PUBLIC_URL, 8080);
    assert.equal(endpoint.httpOriginFor({ protocol: 'http', host: 'other.example.com:8080' }, true), origin);
  }
  assert.equal(loadGatewayConfig({ ...BASE, CONTROL_PUBLIC_URL: '' }).CONTROL_PUBLIC_URL, undefined);
  for (const bad of ['api.example.com', 'wss://api.example.com', 'https://api.example.com/v1', 'https://u:p@api.example.com']) {
    assert.throws(() => loadGatewayConfig({ ...BASE, CONTROL_PUBLIC_URL: bad }), /CONTROL_PUBLIC_URL/, bad);
  }
});
