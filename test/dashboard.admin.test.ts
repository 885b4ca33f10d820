import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode } from './helpers/http.ts';
import { runAdmin } from './helpers/admin.ts';
import { DashboardClient } from './helpers/dashboard.ts';

const PASSWORD = 'a long enough password';

test('dashboard admin CLI - create-user reads the password from standard input only', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const { controlUrl } = cluster.gateways[0]!;
  const createUser = (args: string[], input?: string) => runAdmin(cluster.env, ['create-user', ...args], input === undefined ? {} : { input });
  const userCount = async () => (await cluster.db.pool.query<{ n: number }>('select count(*)::int as n from users')).rows[0]!.n;

  await t.test('create-user --password-stdin makes an owner who can sign in', async () => {
    const made = await createUser(['--email', 'Ada@Example.com', '--org', 'acme', '--role', 'owner', '--password-stdin', '--json'], `${PASSWORD}\n`);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /^\{[^\n]*\}\n$/);
    const out = JSON.parse(made.stdout);
    assert.equal(out.email, 'ada@example.com');
    assert.match(out.userId, /^usr_/);
    assert.match(out.organizationId, /^org_/);
    assert.equal(out.organizationCreated, true);
    assert.equal(out.role, 'owner');

    const { rows } = await cluster.db.pool.query<{ password_hash: string }>('select password_hash from users where id = $1', [out.userId]);
    assert.match(rows[0]!.password_hash, /^\$scrypt\$ln=17,r=8,p=1\$/);
    assert.ok(!rows[0]!.password_hash.includes(PASSWORD));

    const client = new DashboardClient(controlUrl);
    const signedIn = await client.signIn('ada@example.com', PASSWORD);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.deepEqual(
      signedIn.body.organizations.map((o: { name: string; role: string }) => [o.name, o.role]),
      [['acme', 'owner']],
    );
    // the trailing newline of the input is not part of the password
    assert.equal(errorCode(await new DashboardClient(controlUrl).signIn('ada@example.com', `${PASSWORD}\n`)), 'unauthorized');

    // the organization by name (now existing) or by id
    const byName = await createUser(['--email', 'bea@example.com', '--org', 'acme', '--role', 'viewer', '--password-stdin', '--json'], PASSWORD);
    assert.equal(byName.code, 0, byName.stderr);
    assert.deepEqual([JSON.parse(byName.stdout).organizationId, JSON.parse(byName.stdout).organizationCreated], [out.organizationId, false]);
    const byId = await createUser(['--email', 'cy@example.com', '--org', out.organizationId, '--role', 'admin', '--password-stdin', '--json'], PASSWORD);
    assert.equal(byId.code, 0, byId.stderr);
    const members = await client.get(`/v1/dashboard/organizations/${out.organizationId}/members`);
    assert.deepEqual(
      members.body.data.map((m: { email: string; role: string }) => [m.email, m.role]),
      [
        ['ada@example.com', 'owner'],
        ['bea@example.com', 'viewer'],
        ['cy@example.com', 'admin'],
      ],
    );
    const audit = await client.get(`/v1/dashboard/organizations/${out.organizationId}/audit`);
    const cli = audit.body.data.filter((e: { actor: { kind: string } }) => e.actor.kind === 'cli').map((e: { action: string }) => e.action);
    assert.deepEqual(cli.sort(), ['member.added', 'member.added', 'member.added', 'organization.created']);
  });

  await t.test('a password on the command line is refused; mistakes exit 64 and create nothing', async () => {
    const before = await userCount();
    const onArgv = await createUser(['--email', 'eve@example.com', '--org', 'acme', '--role', 'owner', '--password', PASSWORD]);
    assert.equal(onArgv.code, 64);
    assert.match(onArgv.stderr, /never taken from the command line/);
    const onArgvEq = await createUser(['--email', 'eve@example.com', '--org', 'acme', '--role', 'owner', `--password=${PASSWORD}`]);
    assert.equal(onArgvEq.code, 64);
    const noStdinFlag = await createUser(['--email', 'eve@example.com', '--org', 'acme', '--role', 'owner'], PASSWORD);
    assert.equal(noStdinFlag.code, 64);
    assert.match(noStdinFlag.stderr, /--password-stdin is required/);
    const short = await createUser(['--email', 'eve@example.com', '--org', 'acme', '--role', 'owner', '--password-stdin'], 'short');
    assert.equal(short.code, 64);
    assert.match(short.stderr, /at least 10 characters/);
    const badRole = await createUser(['--email', 'eve@example.com', '--org', 'acme', '--role', 'root', '--password-stdin'], PASSWORD);
    assert.equal(badRole.code, 64);
    const badEmail = await createUser(['--email', 'eve', '--org', 'acme', '--role', 'owner', '--password-stdin'], PASSWORD);
    assert.equal(badEmail.code, 64);
    const unknownOrg = await createUser(
      ['--email', 'eve@example.com', '--org', 'org_00000000000000000000000000', '--role', 'owner', '--password-stdin'],
      PASSWORD,
    );
    assert.equal(unknownOrg.code, 64);
    assert.match(unknownOrg.stderr, /no organization/);
    const taken = await createUser(['--email', 'ADA@example.com', '--org', 'acme', '--role', 'owner', '--password-stdin'], PASSWORD);
    assert.equal(taken.code, 64);
    assert.match(taken.stderr, /already exists/);
    assert.equal(await userCount(), before);
  });
});
