import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { DashboardClient, askForCode, createUser, mailedCodes } from './helpers/dashboard.ts';

const PASSWORD = 'correct horse battery';
const SQUATTER = 'mallory password 1';

test('dashboard e-mail codes - no account without a proven address, the same answer for every address, password reset', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, env: { LOG_LEVEL: 'info', DASHBOARD_EMAIL_CODES_PER_IP: '1000' } });
  const { controlUrl, output } = cluster.gateways[0]!;
  const olivia = await createUser(cluster.db.pool, { email: 'olivia@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const acme = olivia.organizationId;
  const owner = new DashboardClient(controlUrl);
  assert.equal((await owner.signIn('olivia@example.com', PASSWORD)).status, 200);
  const invite = async (body: object) => {
    const made = await owner.post(`/v1/dashboard/organizations/${acme}/invitations`, body);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return made.body.token as string;
  };
  const accept = (token: string, body: object) => new DashboardClient(controlUrl).post(`/v1/dashboard/invitations/${token}/accept`, body);
  const ask = (path: string, email: string) => request(controlUrl, 'POST', path, { body: { email } });
  const codeFor = (email: string, purpose: 'verify' | 'reset') =>
    askForCode(output, email, purpose, () => ask(purpose === 'verify' ? '/v1/dashboard/email-verifications' : '/v1/dashboard/password-resets', email));
  const userCount = async (email: string) => (await cluster.db.pool.query('select 1 from users where email = $1', [email])).rowCount;

  await t.test('an unbound invitation makes no account for an address nobody proved; its owner verifies and accepts later', async () => {
    const unbound = await invite({ role: 'admin' });
    const squat = await accept(unbound, { email: 'victim@example.com', password: SQUATTER });
    assert.equal(errorCode(squat), 'unauthorized', JSON.stringify(squat.body));
    const guessed = await accept(unbound, { email: 'victim@example.com', password: SQUATTER, code: '12345678' });
    assert.equal(errorCode(guessed), 'unauthorized');
    // a code for another address (the squatter's own) proves nothing about this one
    const own = await codeFor('mallory@example.com', 'verify');
    assert.equal(errorCode(await accept(unbound, { email: 'victim@example.com', password: SQUATTER, code: own })), 'unauthorized');
    assert.equal(await userCount('victim@example.com'), 0, 'no account was made for the unproven address');

    const bound = await invite({ role: 'viewer', email: 'victim@example.com' });
    const code = await codeFor('victim@example.com', 'verify');
    const joined = await accept(bound, { password: PASSWORD, code: code.slice(0, 4) + ' ' + code.slice(4) });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.equal(joined.body.user.email, 'victim@example.com');
    assert.equal((await new DashboardClient(controlUrl).signIn('victim@example.com', PASSWORD)).status, 200);
    // the code was used: it makes nothing a second time
    const again = await accept(unbound, { email: 'victim@example.com', password: SQUATTER, code });
    assert.equal(errorCode(again), 'unauthorized');
  });

  await t.test('the same status and body for an address with an account and one without', async () => {
    for (const path of ['/v1/dashboard/email-verifications', '/v1/dashboard/password-resets']) {
      const known = await ask(path, 'olivia@example.com');
      const unknown = await ask(path, 'nobody@example.com');
      assert.deepEqual([known.status, known.body], [202, { status: 'requested' }], path);
      assert.deepEqual([unknown.status, unknown.body], [known.status, known.body], path);
    }
    const token = await invite({ role: 'viewer' });
    const known = await accept(token, { email: 'olivia@example.com', password: 'not her password' });
    const unknown = await accept(token, { email: 'nobody@example.com', password: 'any password at all' });
    assert.equal(known.status, 401);
    assert.deepEqual([unknown.status, unknown.body], [known.status, known.body]);
    const shortKnown = await accept(token, { email: 'olivia@example.com', password: 'short' });
    const shortUnknown = await accept(token, { email: 'nobody@example.com', password: 'short' });
    assert.deepEqual([shortUnknown.status, shortUnknown.body], [shortKnown.status, shortKnown.body]);
    // the reset mail tells the mailbox, and only the mailbox, that no account uses it
    assert.ok(mailedCodes(output, 'olivia@example.com', 'reset').length >= 1);
    assert.deepEqual(mailedCodes(output, 'nobody@example.com', 'reset'), []);
    assert.ok(output.some((line) => line.includes('"to":"nobody@example.com"') && line.includes('no account uses this address')));
  });

  await t.test('a reset sets the password and ends every session; its code works once', async () => {
    await createUser(cluster.db.pool, { email: 'rita@example.com', password: PASSWORD, organization: acme, role: 'admin' });
    const laptop = new DashboardClient(controlUrl);
    assert.equal((await laptop.signIn('rita@example.com', PASSWORD)).status, 200);
    const code = await codeFor('rita@example.com', 'reset');
    const confirm = (body: object) => request(controlUrl, 'POST', '/v1/dashboard/password-resets/confirm', { body });
    assert.equal(errorCode(await confirm({ email: 'rita@example.com', code: '00000000', password: 'a new password' })), 'unauthorized');
    assert.equal(errorCode(await confirm({ email: 'rita@example.com', code, password: 'short' })), 'invalid_request');
    // a verification code is not a reset code
    const verify = await codeFor('rita@example.com', 'verify');
    assert.equal(errorCode(await confirm({ email: 'rita@example.com', code: verify, password: 'a new password' })), 'unauthorized');
    const done = await confirm({ email: 'rita@example.com', code, password: 'a new password' });
    assert.equal(done.status, 204, JSON.stringify(done.body));
    assert.equal(errorCode(await laptop.get(`/v1/dashboard/organizations/${acme}`)), 'unauthorized', 'the old session ended');
    assert.equal(errorCode(await new DashboardClient(controlUrl).signIn('rita@example.com', PASSWORD)), 'unauthorized');
    assert.equal((await new DashboardClient(controlUrl).signIn('rita@example.com', 'a new password')).status, 200);
    assert.equal(errorCode(await confirm({ email: 'rita@example.com', code, password: 'a third password' })), 'unauthorized', 'single use');
    // an address without an account has no usable reset code
    assert.equal(errorCode(await confirm({ email: 'nobody@example.com', code, password: 'a new password' })), 'unauthorized');
    const audit = await owner.get(`/v1/dashboard/organizations/${acme}/audit?limit=50`);
    assert.ok(
      audit.body.data.some((e: { action: string; actor: { email: string } }) => e.action === 'user.password_reset' && e.actor.email === 'rita@example.com'),
    );
  });

  await t.test('wrong guesses kill the codes; codes expire', async () => {
    const code = await codeFor('guess@example.com', 'verify');
    const token = await invite({ role: 'viewer' });
    const wrong = code === '00000000' ? '11111111' : '00000000';
    for (let i = 0; i < 5; i++) assert.equal(errorCode(await accept(token, { email: 'guess@example.com', password: PASSWORD, code: wrong })), 'unauthorized');
    assert.equal(errorCode(await accept(token, { email: 'guess@example.com', password: PASSWORD, code })), 'unauthorized', 'dead after 5 wrong guesses');
    assert.equal(await userCount('guess@example.com'), 0);

    const quick = await cluster.start('gateway', { LOG_LEVEL: 'info', DASHBOARD_EMAIL_CODE_TTL: '1s', DASHBOARD_EMAIL_CODES_PER_IP: '1000' });
    const late = await askForCode(quick.output, 'late@example.com', 'verify', () =>
      request(quick.controlUrl, 'POST', '/v1/dashboard/email-verifications', { body: { email: 'late@example.com' } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(errorCode(await accept(token, { email: 'late@example.com', password: PASSWORD, code: late })), 'unauthorized', 'expired');
    assert.equal(await userCount('late@example.com'), 0);
  });

  await t.test('asking for codes is limited per e-mail address and per client address, alike for every address', async () => {
    for (const email of ['olivia@example.com', 'flood@example.com']) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await ask('/v1/dashboard/password-resets', email)).status);
      // olivia asked once already in this test (and flood never): both end refused
      assert.equal(statuses.at(-1), 429, `${email}: ${statuses.join(',')}`);
    }
    const proxied = await cluster.start('gateway', { TRUST_PROXY: 'true', DASHBOARD_EMAIL_CODES_PER_IP: '3' });
    const from = (i: number) =>
      request(proxied.controlUrl, 'POST', '/v1/dashboard/email-verifications', {
        body: { email: `spray${i}@example.com` },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
    for (let i = 0; i < 3; i++) assert.equal((await from(i)).status, 202);
    const refused = await from(3);
    assert.equal(errorCode(refused), 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const other = await request(proxied.controlUrl, 'POST', '/v1/dashboard/email-verifications', {
      body: { email: 'spray9@example.com' },
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    assert.equal(other.status, 202, 'another client address is not refused');
  });
});
