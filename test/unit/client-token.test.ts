import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError } from '@rtm/client';
import { renewalDelayMs, tokenExpiryMs, tokenLifetimeMs } from '../../libs/client/src/token.ts';
import { FakeClock, FakeSocket, fakeClient, lastSocket } from '../helpers/client-fakes.ts';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An unsigned JWT-shaped token (the SDK reads claims, it never verifies). */
const jwt = (iatMs: number, lifetimeS: number, n = 0) =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'alice', iat: Math.floor(iatMs / 1000), exp: Math.floor(iatMs / 1000) + lifetimeS, n })}.sig`;
const iso = (ms: number) => new Date(ms).toISOString();

test('client token - renewal schedule: 20 % of the lifetime ahead, between 2 s and 60 s, never sooner than the floor', () => {
  const now = 1_000_000;
  assert.equal(renewalDelayMs(now + 3_600_000, now, 3_600_000), 3_540_000, 'one hour: a minute before');
  assert.equal(renewalDelayMs(now + 60_000, now, 60_000), 48_000, 'one minute: 12 s before');
  assert.equal(renewalDelayMs(now + 10_000, now, 10_000), 8_000, '10 s: 2 s before');
  assert.equal(renewalDelayMs(now + 3_000, now, 3_000), 1_000, 'very short: 2 s lead, at least 1 s');
  // a client clock ahead of the server's: the token looks expired, yet renewals are spaced by 10 % of its lifetime
  assert.equal(renewalDelayMs(now - 100_000, now, 3_600_000), 360_000);
  // no lifetime known: the time left is taken as the lifetime
  assert.equal(renewalDelayMs(now + 100_000, now), 80_000);
  assert.equal(renewalDelayMs(now, now), 1_000);
});

test('client token - lifetime and expiry are read from JWT claims; anything else is unknown', () => {
  const token = jwt(1_700_000_000_000, 900);
  assert.equal(tokenLifetimeMs(token), 900_000);
  assert.equal(tokenExpiryMs(token), 1_700_000_900_000);
  assert.equal(tokenLifetimeMs('opaque-token'), undefined);
  assert.equal(tokenLifetimeMs('a.%%%.c'), undefined);
  assert.equal(tokenLifetimeMs(`${b64({})}.${b64({ exp: 5 })}.x`), undefined);
});

test('client token - renewed in place with {op:"auth"} before expiry, then scheduled again from the new expiry', async () => {
  const clock = new FakeClock();
  const issued: string[] = [];
  const { client } = fakeClient({
    clock,
    getToken: () => {
      const token = jwt(clock.now(), 10, issued.length);
      issued.push(token);
      return token;
    },
  });
  await clock.advance(0);
  assert.equal(issued.length, 1);
  const socket = lastSocket();
  assert.equal(socket.token, issued[0]);
  socket.accept({ expiresAt: iso(clock.now() + 10_000) });
  await clock.advance(7_999);
  assert.equal(issued.length, 1, 'not before 2 s ahead of expiry');
  await clock.advance(1);
  assert.equal(issued.length, 2);
  const [auth] = socket.ops('auth');
  assert.deepEqual(auth, { op: 'auth', ref: auth.ref, token: issued[1] });
  socket.push({ op: 'authenticated', ref: auth.ref, expiresAt: iso(clock.now() + 10_000) });
  await clock.advance(7_999);
  assert.equal(socket.ops('auth').length, 1);
  await clock.advance(1);
  assert.equal(socket.ops('auth').length, 2, 'the next renewal follows the new expiry');
  assert.equal(client.state, 'connected');
  assert.equal(FakeSocket.instances.length, 1, 'no reconnect was needed');
  client.close();
});

test('client token - a refused renewal or a failing getToken is retried with backoff and reported', async () => {
  const clock = new FakeClock();
  let calls = 0;
  let fail = false;
  const { client } = fakeClient({
    clock,
    getToken: () => {
      calls += 1;
      if (fail) throw new Error('token server down');
      return jwt(clock.now(), 10, calls);
    },
  });
  const errors: RtmError[] = [];
  client.on('error', (error) => errors.push(error));
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept({ expiresAt: iso(clock.now() + 10_000) });
  await clock.advance(8_000);
  const [auth] = socket.ops('auth');
  socket.push({ op: 'error', ref: auth.ref, code: 'unauthorized', reason: 'token expired' });
  assert.deepEqual(
    errors.map((e) => e.code),
    ['unauthorized'],
  );
  fail = true;
  await clock.advance(1_000); // renewal backoff: at most 1 s for the first retry
  assert.equal(errors.length, 2);
  assert.match(errors[1]!.message, /token server down/);
  fail = false;
  await clock.advance(2_000);
  assert.equal(socket.ops('auth').length, 2, 'a renewal is sent again once getToken works');
  client.close();
});

test('client token - 4401 on a live connection: a new token from getToken, and reconnect at once', async () => {
  const { client, clock, tokens } = fakeClient();
  const changes: Array<[string, unknown]> = [];
  client.on('state', (state, change) => changes.push([state, change.retryInMs]));
  await clock.advance(0);
  lastSocket().accept();
  lastSocket().drop(4401, 'token expired');
  assert.deepEqual(changes.at(-1), ['disconnected', 0]);
  await clock.advance(0);
  assert.equal(tokens.length, 2, 'getToken was called again');
  assert.equal(lastSocket().token, 'tok-2');
  lastSocket().accept();
  assert.equal(client.state, 'connected');
  client.close();
});

test('client token - a reconnect reuses a token that is still good; a 4401 with a token fresh from getToken waits a backoff', async () => {
  const { client, clock, tokens } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  lastSocket().drop(1006);
  await clock.advance(clock.nextIn()!);
  assert.equal(tokens.length, 1, 'the first token is reused');
  assert.equal(lastSocket().token, 'tok-1');
  lastSocket().drop(4401, 'unauthorized'); // refused at open: the remembered token is bad, fetch one at once
  let retryIn: number | undefined;
  client.on('state', (state, change) => {
    if (state === 'disconnected') retryIn = change.retryInMs;
  });
  await clock.advance(0);
  assert.equal(tokens.length, 2);
  lastSocket().drop(4401, 'unauthorized'); // refused again with a fresh token: do not hammer
  assert.ok(retryIn! > 0, `waits ${retryIn} ms`);
  client.close();
});

test('client token - getToken failing at connect is reported and retried', async () => {
  let calls = 0;
  const { client, clock } = fakeClient({
    getToken: async () => {
      calls += 1;
      if (calls === 1) throw new Error('no session');
      return 'tok';
    },
  });
  const errors: RtmError[] = [];
  client.on('error', (error) => errors.push(error));
  await clock.advance(0);
  assert.equal(client.state, 'disconnected');
  assert.equal(errors[0]?.code, 'unauthorized');
  await clock.advance(clock.nextIn()!);
  assert.equal(lastSocket().token, 'tok');
  client.close();
});
