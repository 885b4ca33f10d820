import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';

const PASSWORD = 'correct horse battery';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('dashboard sessions - sign-in, cookie, sign-out, CSRF, throttling and expiry', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    env: {
      // clients of these tests tell their address with X-Forwarded-For, as behind a load balancer
      TRUST_PROXY: 'true',
      DASHBOARD_LOGIN_FAILURES_PER_ACCOUNT: '3',
      DASHBOARD_LOGIN_FAILURES_PER_IP: '5',
      DASHBOARD_LOGIN_WINDOW: '1h',
    },
  });
  const { controlUrl } = cluster.gateways[0]!;
  const alice = await createUser(cluster.db.pool, { email: 'alice@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  await createUser(cluster.db.pool, { email: 'bob@example.com', password: PASSWORD, organization: alice.organizationId, role: 'viewer' });

  await t.test('sign in sets an HttpOnly, SameSite=Lax cookie and answers the user, organizations, roles and CSRF token', async () => {
    const client = new DashboardClient(controlUrl, { ip: '10.0.0.1' });
    const signedIn = await client.signIn('Alice@Example.com ', PASSWORD);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const cookie = signedIn.headers.get('set-cookie')!;
    assert.match(cookie, /^dashboard_session=[A-Za-z0-9_-]{43}; /);
    for (const attribute of ['Path=/', 'HttpOnly', 'SameSite=Lax']) assert.ok(cookie.split('; ').includes(attribute), `${attribute} in ${cookie}`);
    assert.ok(!/; Secure/.test(cookie), 'no Secure over plain http');
    assert.match(cookie, /Max-Age=\d+/);
    assert.equal(signedIn.body.user.email, 'alice@example.com');
    assert.equal(signedIn.body.user.id, alice.userId);
    assert.deepEqual(
      signedIn.body.organizations.map((o: { id: string; name: string; role: string }) => [o.id, o.name, o.role]),
      [[alice.organizationId, 'acme', 'owner']],
    );
    assert.match(signedIn.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(Date.parse(signedIn.body.idleExpiresAt) <= Date.parse(signedIn.body.expiresAt));
    assert.equal(signedIn.headers.get('cache-control'), 'no-store');
    // the session id is not the CSRF token, and is stored only hashed
    let sessionId = client.cookie!.split('=')[1]!;
    assert.notEqual(sessionId, signedIn.body.csrfToken);
    const { rows } = await cluster.db.pool.query('select * from dashboard_sessions');
    assert.ok(!JSON.stringify(rows).includes(sessionId));

    // signing in again in the same browser ends the session its cookie named
    const firstCookie = client.cookie;
    assert.equal((await client.signIn('alice@example.com', PASSWORD)).status, 200);
    assert.notEqual(client.cookie, firstCookie);
    const replaced = new DashboardClient(controlUrl);
    replaced.cookie = firstCookie;
    assert.equal(errorCode(await replaced.get('/v1/dashboard/session')), 'unauthorized');

    const current = await client.get('/v1/dashboard/session');
    assert.equal(current.status, 200);
    assert.equal(current.body.user.email, 'alice@example.com');
    assert.equal(current.body.csrfToken, client.csrfToken);
    assert.notEqual(current.body.csrfToken, signedIn.body.csrfToken, 'a new session, a new token');

    sessionId = client.cookie!.split('=')[1]!;
    const out = await client.delete('/v1/dashboard/session');
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /^dashboard_session=; .*Max-Age=0/);
    // the old cookie is worth nothing now, even if a browser kept it
    const stale = new DashboardClient(controlUrl);
    stale.cookie = `dashboard_session=${sessionId}`;
    assert.equal(errorCode(await stale.get('/v1/dashboard/session')), 'unauthorized');
    assert.equal(errorCode(await client.get('/v1/dashboard/session')), 'unauthorized');
    assert.equal(errorCode(await client.get('/v1/dashboard/organizations')), 'unauthorized');
    // signing out again is harmless
    assert.equal((await client.delete('/v1/dashboard/session')).status, 204);
  });

  await t.test('over https (as a trusted proxy reports it) the cookie is Secure', async () => {
    const client = new DashboardClient(controlUrl, { ip: '10.0.0.2' });
    const host = new URL(controlUrl).host;
    const res = await client.signIn('alice@example.com', PASSWORD, { 'x-forwarded-proto': 'https', origin: `https://${host}` });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('set-cookie')!, /; Secure$/);
  });

  await t.test('a wrong password and an unknown e-mail get the same 401; neither sets a cookie', async () => {
    const client = new DashboardClient(controlUrl, { ip: '10.0.0.3' });
    const wrong = await client.signIn('alice@example.com', 'not the password');
    const unknown = await client.signIn('nobody@example.com', 'not the password');
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(errorCode(wrong), 'unauthorized');
    assert.equal(wrong.headers.get('set-cookie'), null);
    assert.equal(unknown.headers.get('set-cookie'), null);
    assert.equal(errorCode(await client.signIn('not-an-email', 'x')), 'invalid_request');
    assert.equal(errorCode(await client.get('/v1/dashboard/session')), 'unauthorized');
    const garbage = new DashboardClient(controlUrl);
    garbage.cookie = 'dashboard_session=garbage';
    assert.equal(errorCode(await garbage.get('/v1/dashboard/session')), 'unauthorized');
  });

  await t.test("changes need the session's CSRF token and the dashboard's own Origin", async () => {
    const client = new DashboardClient(controlUrl, { ip: '10.0.0.4' });
    assert.equal((await client.signIn('alice@example.com', PASSWORD)).status, 200);
    const other = new DashboardClient(controlUrl, { ip: '10.0.0.4' });
    assert.equal((await other.signIn('bob@example.com', PASSWORD)).status, 200);
    const path = `/v1/dashboard/organizations/${alice.organizationId}/projects`;
    const refused = async (headers: Record<string, string | undefined>, what: string) => {
      const res = await client.post(path, { name: `p-${what}` }, headers);
      assert.equal(res.status, 403, `${what}: ${JSON.stringify(res.body)}`);
      assert.equal(errorCode(res), 'forbidden');
    };
    await refused({ 'x-csrf-token': undefined }, 'no token');
    await refused({ 'x-csrf-token': 'A'.repeat(43) }, 'a wrong token');
    await refused({ 'x-csrf-token': other.csrfToken }, "another session's token");
    await refused({ origin: 'https://evil.example' }, 'a foreign Origin');
    await refused({ origin: controlUrl.replace('127.0.0.1', 'localhost') }, 'another host');
    await refused({ origin: 'null' }, 'Origin null');
    await refused({ origin: undefined, referer: 'https://evil.example/page' }, 'a foreign Referer');
    const { rows } = await cluster.db.pool.query('select name from projects');
    assert.deepEqual(rows, [], 'nothing was created');

    assert.equal((await client.post(path, { name: 'same-origin' })).status, 201);
    assert.equal((await client.post(path, { name: 'referer' }, { origin: undefined, referer: `${controlUrl}/dashboard/projects` })).status, 201);
    // a script (no Origin, no Referer) is judged by the token alone
    assert.equal((await client.post(path, { name: 'script' }, { origin: undefined })).status, 201);

    // signing out is a change too: a forged sign-out leaves the session alone
    const forged = await client.delete('/v1/dashboard/session', undefined, { 'x-csrf-token': undefined });
    assert.equal(errorCode(forged), 'forbidden');
    assert.equal((await client.get('/v1/dashboard/session')).status, 200);
    // and signing in from another site is refused
    const foreignSignIn = await new DashboardClient(controlUrl, { ip: '10.0.0.4' }).signIn('alice@example.com', PASSWORD, { origin: 'https://evil.example' });
    assert.equal(errorCode(foreignSignIn), 'forbidden');
    assert.equal(foreignSignIn.headers.get('set-cookie'), null);
  });

  await t.test('failures from many addresses slow an account down but never lock its owner out, for known and unknown e-mails alike', async () => {
    const refusals: { status: number; code: string | undefined; reason: unknown }[] = [];
    for (const [n, email] of ['bob@example.com', 'ghost@example.com'].entries()) {
      // nine failures, each from its own address: past 3 the account is slowed, never refused,
      // for an address with no failures of its own
      for (let i = 0; i < 9; i++) {
        const res = await new DashboardClient(controlUrl, { ip: `10.1${n}.${i}.1` }).signIn(email, 'wrong password');
        assert.equal(res.status, 401, `${email} attempt ${i + 1}: ${JSON.stringify(res.body)}`);
      }
      // an address with a failure of its own waits: 1 s doubled per failure past 3, at most a minute
      const slowed = await new DashboardClient(controlUrl, { ip: `10.1${n}.0.1` }).signIn(email, email === 'bob@example.com' ? PASSWORD : 'x');
      assert.equal(slowed.status, 429, `${email}: ${JSON.stringify(slowed.body)}`);
      assert.equal(errorCode(slowed), 'rate_limited');
      const retryAfter = Number(slowed.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `a delay, not a lock-out: retry-after ${retryAfter}`);
      assert.equal(slowed.headers.get('set-cookie'), null, 'judged before the password');
      refusals.push({ status: slowed.status, code: errorCode(slowed), reason: slowed.body.reason });
    }
    // the same (refusing) answer for both, so the slow-down does not tell whether an account exists
    assert.deepEqual(refusals[0], refusals[1]);
    // the owner's right password from an address with no recent failures signs in at once
    const owner = await new DashboardClient(controlUrl, { ip: '10.1.9.9' }).signIn('bob@example.com', PASSWORD);
    assert.equal(owner.status, 200, JSON.stringify(owner.body));
    // other accounts are not affected
    assert.equal((await new DashboardClient(controlUrl, { ip: '10.1.9.3' }).signIn('alice@example.com', PASSWORD)).status, 200);
  });

  await t.test('failed sign-ins are limited per account from one address; other addresses still sign in', async () => {
    await createUser(cluster.db.pool, { email: 'dave@example.com', password: PASSWORD, organization: alice.organizationId, role: 'viewer' });
    const from = (ip: string) => new DashboardClient(controlUrl, { ip });
    for (let i = 0; i < 3; i++) assert.equal((await from('10.5.0.1').signIn('dave@example.com', 'wrong password')).status, 401);
    const over = await from('10.5.0.1').signIn('dave@example.com', PASSWORD);
    assert.equal(errorCode(over), 'rate_limited');
    const retryAfter = Number(over.headers.get('retry-after'));
    assert.ok(retryAfter > 3000 && retryAfter <= 3600, `retry-after ${retryAfter}`);
    assert.equal(over.headers.get('set-cookie'), null, 'not even the right password gets in from there');
    assert.equal((await from('10.5.0.2').signIn('dave@example.com', PASSWORD)).status, 200);
  });

  await t.test("a right password forgives the address's earlier failures on the account", async () => {
    await createUser(cluster.db.pool, { email: 'carol@example.com', password: PASSWORD, organization: alice.organizationId, role: 'viewer' });
    const carol = (password: string) => new DashboardClient(controlUrl, { ip: '10.2.0.1' }).signIn('carol@example.com', password);
    assert.equal((await carol('wrong password')).status, 401);
    assert.equal((await carol('wrong password')).status, 401);
    assert.equal((await carol(PASSWORD)).status, 200);
    assert.equal((await carol('wrong password')).status, 401);
    assert.equal((await carol('wrong password')).status, 401);
    assert.equal((await carol(PASSWORD)).status, 200, 'two failures since the last success: under the limit of 3');
  });

  await t.test('control characters in an e-mail are refused with 400, never reach the database', async () => {
    const owner = new DashboardClient(controlUrl, { ip: '10.6.0.1' });
    assert.equal((await owner.signIn('alice@example.com', PASSWORD)).status, 200);
    for (const email of ['alice\u0000@example.com', 'alice@example.com\u0000', 'al\u0007ice@example.com', '\u001b@example.com']) {
      const signIn = await new DashboardClient(controlUrl, { ip: '10.6.0.2' }).signIn(email, PASSWORD);
      assert.equal(signIn.status, 400, `sign-in ${JSON.stringify(email)}: ${JSON.stringify(signIn.body)}`);
      assert.equal(errorCode(signIn), 'invalid_request');
      assert.match(signIn.body.reason, /control characters/);
      const invite = await owner.post(`/v1/dashboard/organizations/${alice.organizationId}/invitations`, { role: 'viewer', email });
      assert.equal(invite.status, 400, `invitation ${JSON.stringify(email)}: ${JSON.stringify(invite.body)}`);
      assert.equal(errorCode(invite), 'invalid_request');
      const accept = await new DashboardClient(controlUrl, { ip: '10.6.0.3' }).post(`/v1/dashboard/invitations/${'A'.repeat(43)}/accept`, {
        email,
        password: PASSWORD,
      });
      assert.equal(accept.status, 400, `acceptance ${JSON.stringify(email)}: ${JSON.stringify(accept.body)}`);
      assert.equal(errorCode(accept), 'invalid_request');
    }
  });

  await t.test('failed sign-ins are limited per client address, whatever the account', async () => {
    const from = (ip: string) => new DashboardClient(controlUrl, { ip });
    for (let i = 0; i < 5; i++) {
      assert.equal((await from('10.3.0.1').signIn(`user${i}@example.com`, 'wrong password')).status, 401);
    }
    const over = await from('10.3.0.1').signIn('alice@example.com', PASSWORD);
    assert.equal(errorCode(over), 'rate_limited');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    // the same account from another address is fine
    assert.equal((await from('10.3.0.2').signIn('alice@example.com', PASSWORD)).status, 200);
  });

  // the rules themselves run on a fake clock in test/unit/accounts.session-expiry.test.ts; here, that
  // a gateway applies its settings to real sessions
  await t.test('a gateway applies its session settings: the cookie and answer carry them, and an idle session ends', async () => {
    const short = await cluster.start('gateway', { DASHBOARD_SESSION_IDLE: '1s', DASHBOARD_SESSION_MAX: '7s' });
    const idle = new DashboardClient(short.controlUrl, { ip: '10.4.0.1' });
    const signedIn = await idle.signIn('alice@example.com', PASSWORD);
    assert.equal(signedIn.status, 200);
    assert.match(signedIn.headers.get('set-cookie')!, /Max-Age=[67];/);
    // absolute lifetime 7 s, idle 1 s: 6 s apart
    const apart = Date.parse(signedIn.body.expiresAt) - Date.parse(signedIn.body.idleExpiresAt);
    assert.ok(apart >= 5_900 && apart <= 6_100, `expiresAt - idleExpiresAt = ${apart} ms`);
    assert.equal((await idle.get('/v1/dashboard/session')).status, 200, 'used within the idle time');
    await sleep(1_300);
    assert.equal(errorCode(await idle.get('/v1/dashboard/session')), 'unauthorized', 'idle for longer than 1 s');
    // unauthenticated requests to the session routes get the envelope
    assert.equal(errorCode(await request(short.controlUrl, 'GET', '/v1/dashboard/organizations')), 'unauthorized');
  });
});
