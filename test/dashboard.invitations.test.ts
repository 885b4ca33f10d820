import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { DashboardClient, askForCode, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';

const PASSWORD = 'correct horse battery';

test('dashboard invitations - single-use links made by owners; accepting creates or joins an account', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, env: { LOG_LEVEL: 'info', DASHBOARD_EMAIL_CODES_PER_IP: '1000' } });
  const { controlUrl, output } = cluster.gateways[0]!;
  /** A verification code for `email`, as its owner reads it from the mail (the gateway's log). */
  const codeFor = (email: string) =>
    askForCode(output, email, 'verify', () => request(controlUrl, 'POST', '/v1/dashboard/email-verifications', { body: { email } }));
  const olivia = await createUser(cluster.db.pool, { email: 'olivia@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const acme = olivia.organizationId;
  await createUser(cluster.db.pool, { email: 'oscar@example.com', password: PASSWORD, organization: 'globex', role: 'owner' });
  const owner = new DashboardClient(controlUrl);
  assert.equal((await owner.signIn('olivia@example.com', PASSWORD)).status, 200);
  const invite = (body: object) => owner.post(`/v1/dashboard/organizations/${acme}/invitations`, body);
  const tokenOf = (link: string) => link.split('#')[1]!;

  await t.test('a new person: the link and a code mailed to them make their account, sign them in, and work only once', async () => {
    const made = await invite({ role: 'admin' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.status, 'pending');
    assert.equal(made.body.link, `${controlUrl}/dashboard/accept-invitation#${made.body.token}`);
    assert.ok(Date.parse(made.body.expiresAt) > Date.now() + 6 * 86_400_000, 'valid for 7 days by default');
    const { rows } = await cluster.db.pool.query('select * from invitations');
    assert.ok(!JSON.stringify(rows).includes(made.body.token), 'the token is stored hashed');

    const preview = await request(controlUrl, 'GET', `/v1/dashboard/invitations/${made.body.token}`);
    assert.equal(preview.status, 200);
    assert.deepEqual([preview.body.organization.name, preview.body.role, preview.body.email], ['acme', 'admin', null]);

    const newcomer = new DashboardClient(controlUrl);
    const noEmail = await newcomer.post(`/v1/dashboard/invitations/${made.body.token}/accept`, { password: PASSWORD });
    assert.equal(errorCode(noEmail), 'invalid_request', 'the invitation names no address: the body must');
    const short = await newcomer.post(`/v1/dashboard/invitations/${made.body.token}/accept`, {
      email: 'nina@example.com',
      password: 'short',
      code: await codeFor('nina@example.com'),
    });
    assert.equal(errorCode(short), 'invalid_request');
    const unproven = await newcomer.post(`/v1/dashboard/invitations/${made.body.token}/accept`, { email: 'nina@example.com', password: PASSWORD });
    assert.equal(errorCode(unproven), 'unauthorized', 'a new account needs a code mailed to the address');
    const code = await codeFor('nina@example.com');
    const accepted = await newcomer.post(`/v1/dashboard/invitations/${made.body.token}/accept`, { email: 'nina@example.com', password: PASSWORD, code });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.match(accepted.headers.get('set-cookie') ?? '', /^dashboard_session=/);
    assert.deepEqual(
      accepted.body.organizations.map((o: { id: string; role: string }) => [o.id, o.role]),
      [[acme, 'admin']],
    );
    // signed in: the session works, and so does a later sign-in with the chosen password
    assert.equal((await newcomer.get(`/v1/dashboard/organizations/${acme}/projects`)).status, 200);
    assert.equal((await new DashboardClient(controlUrl).signIn('nina@example.com', PASSWORD)).status, 200);

    // single use: neither a second acceptance nor a preview finds it
    const again = await new DashboardClient(controlUrl).post(`/v1/dashboard/invitations/${made.body.token}/accept`, {
      email: 'mallory@example.com',
      password: PASSWORD,
    });
    assert.equal(errorCode(again), 'not_found');
    assert.equal(errorCode(await request(controlUrl, 'GET', `/v1/dashboard/invitations/${made.body.token}`)), 'not_found');
    const { rows: users } = await cluster.db.pool.query("select 1 from users where email = 'mallory@example.com'");
    assert.equal(users.length, 0);
    const list = await owner.get(`/v1/dashboard/organizations/${acme}/invitations`);
    assert.equal(list.body.data.find((i: { id: string }) => i.id === made.body.id).status, 'accepted');
    assert.ok(!JSON.stringify(list.body).includes(made.body.token), 'tokens are never listed');
  });

  await t.test('two acceptances at once: exactly one wins', async () => {
    const made = await invite({ role: 'viewer' });
    const emails = ['race1@example.com', 'race2@example.com'];
    const codes = [await codeFor(emails[0]!), await codeFor(emails[1]!)];
    const results = await Promise.all(
      emails.map((email, i) =>
        new DashboardClient(controlUrl).post(`/v1/dashboard/invitations/${made.body.token}/accept`, { email, password: PASSWORD, code: codes[i] }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 404]);
    const { rows } = await cluster.db.pool.query<{ n: number }>(
      "select count(*)::int as n from organization_members m join users u on u.id = m.user_id where u.email like 'race%'",
    );
    assert.equal(rows[0]!.n, 1);
  });

  await t.test('an existing account joins with its own password; a wrong one leaves the invitation usable', async () => {
    const made = await invite({ role: 'viewer', email: 'Oscar@Example.com' });
    assert.equal(made.body.email, 'oscar@example.com');
    const oscar = new DashboardClient(controlUrl);
    const other = await oscar.post(`/v1/dashboard/invitations/${made.body.token}/accept`, { email: 'eve@example.com', password: PASSWORD });
    assert.equal(errorCode(other), 'forbidden', 'only the invited address may accept');
    const wrong = await oscar.post(`/v1/dashboard/invitations/${made.body.token}/accept`, { password: 'not his password' });
    assert.equal(errorCode(wrong), 'unauthorized');
    const joined = await oscar.post(`/v1/dashboard/invitations/${made.body.token}/accept`, { password: PASSWORD });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.deepEqual(
      joined.body.organizations.map((o: { name: string; role: string }) => [o.name, o.role]),
      [
        ['acme', 'viewer'],
        ['globex', 'owner'],
      ],
    );
  });

  await t.test('owners only; a revoked invitation stops working', async () => {
    const viewer = new DashboardClient(controlUrl);
    assert.equal((await viewer.signIn('oscar@example.com', PASSWORD)).status, 200);
    const refused = await viewer.post(`/v1/dashboard/organizations/${acme}/invitations`, { role: 'owner' });
    assert.equal(errorCode(refused), 'forbidden');

    const made = await invite({ role: 'admin' });
    const revoked = await owner.delete(`/v1/dashboard/organizations/${acme}/invitations/${made.body.id}`);
    assert.deepEqual([revoked.status, revoked.body.status], [200, 'revoked']);
    const accept = await new DashboardClient(controlUrl).post(`/v1/dashboard/invitations/${made.body.token}/accept`, {
      email: 'late@example.com',
      password: PASSWORD,
    });
    assert.equal(errorCode(accept), 'not_found');
    assert.equal(
      errorCode(
        await new DashboardClient(controlUrl).post(`/v1/dashboard/invitations/${'x'.repeat(43)}/accept`, { email: 'a@example.com', password: PASSWORD }),
      ),
      'not_found',
    );
    assert.equal(errorCode(await request(controlUrl, 'GET', '/v1/dashboard/invitations/short')), 'invalid_request');
  });

  await t.test('an expired invitation is refused; outside production the link is in the gateway log', async () => {
    const quick = await cluster.start('gateway', { DASHBOARD_INVITATION_TTL: '1s', LOG_LEVEL: 'info' });
    const client = owner.on(quick.controlUrl);
    const made = await client.post(`/v1/dashboard/organizations/${acme}/invitations`, { role: 'viewer' });
    assert.equal(made.status, 201);
    await eventually('the link is logged', async () => quick.output.some((line) => line.includes(made.body.link) && line.includes('invitation created')));
    // a refused acceptance is logged without the token (it is still usable)
    const wrong = await new DashboardClient(quick.controlUrl).post(`/v1/dashboard/invitations/${made.body.token}/accept`, {
      email: 'olivia@example.com',
      password: 'not her password',
    });
    assert.equal(errorCode(wrong), 'unauthorized');
    await eventually('the refusal is logged', async () => quick.output.some((line) => line.includes('/v1/dashboard/invitations/…/accept')));
    assert.ok(
      !quick.output.some((line) => line.includes(made.body.token) && !line.includes('invitation created')),
      'the token appears only in the dev log line',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const late = await new DashboardClient(quick.controlUrl).post(`/v1/dashboard/invitations/${tokenOf(made.body.link)}/accept`, {
      email: 'late@example.com',
      password: PASSWORD,
    });
    assert.equal(errorCode(late), 'not_found');
    const list = await client.get(`/v1/dashboard/organizations/${acme}/invitations`);
    assert.equal(list.body.data.find((i: { id: string }) => i.id === made.body.id).status, 'expired');
  });

  await t.test('the audit log records invitations made, revoked and accepted', async () => {
    const audit = await owner.get(`/v1/dashboard/organizations/${acme}/audit?limit=200`);
    const actions = audit.body.data.map((e: { actor: { email: string | null }; action: string }) => `${e.actor.email} ${e.action}`);
    for (const expected of [
      'olivia@example.com invitation.created',
      'olivia@example.com invitation.revoked',
      'nina@example.com invitation.accepted',
      'oscar@example.com invitation.accepted',
    ]) {
      assert.ok(actions.includes(expected), `${expected} in ${actions.join(', ')}`);
    }
  });
});
