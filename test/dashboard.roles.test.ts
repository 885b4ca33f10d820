import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { allPages, errorCode, type HttpResult } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';

const PASSWORD = 'correct horse battery';
const UNKNOWN = {
  org: 'org_00000000000000000000000000',
  prj: 'prj_00000000000000000000000000',
  env: 'env_00000000000000000000000000',
  key: 'key_00000000000000000000000000',
};

function expectError(res: HttpResult, status: number, code: string, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(errorCode(res), code, what);
}

test("dashboard roles - owners, admins and viewers; every route scoped to the user's organizations", async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const { controlUrl } = cluster.gateways[0]!;
  const pool = cluster.db.pool;
  const olivia = await createUser(pool, { email: 'olivia@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const acme = olivia.organizationId;
  const adam = await createUser(pool, { email: 'adam@example.com', password: PASSWORD, organization: acme, role: 'admin' });
  const vera = await createUser(pool, { email: 'vera@example.com', password: PASSWORD, organization: acme, role: 'viewer' });
  const oscar = await createUser(pool, { email: 'oscar@example.com', password: PASSWORD, organization: 'globex', role: 'owner' });
  const globex = oscar.organizationId;

  const signedIn = async (email: string) => {
    const client = new DashboardClient(controlUrl);
    const res = await client.signIn(email, PASSWORD);
    assert.equal(res.status, 200, `${email}: ${JSON.stringify(res.body)}`);
    return client;
  };
  const [owner, admin, viewer, outsider] = await Promise.all(['olivia@example.com', 'adam@example.com', 'vera@example.com', 'oscar@example.com'].map(signedIn));

  // what the tests below share: a project with an environment, a key and an origin, made by the admin
  const project = await admin!.post(`/v1/dashboard/organizations/${acme}/projects`, { name: 'chat' });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const projectId: string = project.body.id;
  const environment = await admin!.post(`/v1/dashboard/projects/${projectId}/environments`, { name: 'staging' });
  assert.equal(environment.status, 201, JSON.stringify(environment.body));
  const envId: string = environment.body.id;
  const key = await admin!.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' });
  assert.equal(key.status, 201, JSON.stringify(key.body));
  const keyId: string = key.body.id;
  assert.equal((await admin!.post(`/v1/dashboard/environments/${envId}/origins`, { origin: 'https://app.example.com' })).status, 201);

  await t.test("the session lists each user's organizations with their role", async () => {
    const list = await viewer!.get('/v1/dashboard/organizations');
    assert.deepEqual(
      list.body.data.map((o: { id: string; role: string }) => [o.id, o.role]),
      [[acme, 'viewer']],
    );
    const org = await viewer!.get(`/v1/dashboard/organizations/${acme}`);
    assert.equal(org.status, 200);
    assert.deepEqual([org.body.name, org.body.role, org.body.memberCount, org.body.projectCount], ['acme', 'viewer', 3, 1]);
    const roles = await viewer!.get(`/v1/dashboard/organizations/${acme}/roles`);
    assert.deepEqual(
      roles.body.data.map((r: { role: string; rights: string[] }) => [r.role, r.rights]),
      [
        ['owner', ['read', 'manage', 'administer']],
        ['admin', ['read', 'manage']],
        ['viewer', ['read']],
      ],
    );
  });

  await t.test('a viewer reads everything and changes nothing (403)', async () => {
    for (const path of [
      `/v1/dashboard/organizations/${acme}`,
      `/v1/dashboard/organizations/${acme}/members`,
      `/v1/dashboard/organizations/${acme}/projects`,
      `/v1/dashboard/organizations/${acme}/invitations`,
      `/v1/dashboard/organizations/${acme}/audit`,
      `/v1/dashboard/projects/${projectId}`,
      `/v1/dashboard/projects/${projectId}/environments`,
      `/v1/dashboard/environments/${envId}`,
      `/v1/dashboard/environments/${envId}/keys`,
      `/v1/dashboard/environments/${envId}/origins`,
    ]) {
      assert.equal((await viewer!.get(path)).status, 200, path);
    }
    const keys = await viewer!.get(`/v1/dashboard/environments/${envId}/keys`);
    assert.deepEqual(Object.keys(keys.body.data[0]).sort(), ['createdAt', 'environmentId', 'id', 'kind', 'lastUsedAt', 'prefix', 'revokedAt']);
    assert.ok(key.body.key.startsWith(keys.body.data[0].prefix.replace('…', '')), 'the prefix is the start of the key');
    assert.ok(!JSON.stringify(keys.body).includes(key.body.key), 'the key itself is never listed');

    const writes: [string, string, unknown?][] = [
      ['POST', `/v1/dashboard/organizations/${acme}/projects`, { name: 'nope' }],
      ['PATCH', `/v1/dashboard/projects/${projectId}`, { name: 'nope' }],
      ['DELETE', `/v1/dashboard/projects/${projectId}`],
      ['POST', `/v1/dashboard/projects/${projectId}/environments`, { name: 'nope' }],
      ['PATCH', `/v1/dashboard/environments/${envId}`, { name: 'nope' }],
      ['DELETE', `/v1/dashboard/environments/${envId}`, { confirm: 'staging' }],
      ['POST', `/v1/dashboard/environments/${envId}/keys`, { kind: 'publishable' }],
      ['POST', `/v1/dashboard/environments/${envId}/keys/${keyId}/revoke`],
      ['POST', `/v1/dashboard/environments/${envId}/origins`, { origin: 'https://other.example.com' }],
      ['DELETE', `/v1/dashboard/environments/${envId}/origins?origin=https://app.example.com`],
      ['POST', `/v1/dashboard/organizations/${acme}/invitations`, { role: 'viewer' }],
      ['PUT', `/v1/dashboard/organizations/${acme}/members/${vera.userId}`, { role: 'owner' }],
      ['DELETE', `/v1/dashboard/organizations/${acme}/members/${adam.userId}`],
    ];
    for (const [method, path, body] of writes) expectError(await viewer!.call(method, path, body), 403, 'forbidden', `viewer ${method} ${path}`);
    // nothing changed
    const envs = await viewer!.get(`/v1/dashboard/projects/${projectId}/environments`);
    assert.deepEqual(
      envs.body.data.map((e: { name: string; activeKeyCount: number; originCount: number }) => [e.name, e.activeKeyCount, e.originCount]),
      [['staging', 1, 1]],
    );
  });

  await t.test('an admin manages projects, environments, keys and origins, but not members', async () => {
    const made = await admin!.post(`/v1/dashboard/organizations/${acme}/projects`, { name: 'scratch' });
    assert.equal(made.status, 201);
    expectError(await admin!.post(`/v1/dashboard/organizations/${acme}/projects`, { name: 'scratch' }), 400, 'invalid_request', 'a taken name');
    const renamed = await admin!.patch(`/v1/dashboard/projects/${made.body.id}`, { name: 'scratch-2' });
    assert.deepEqual([renamed.status, renamed.body.name], [200, 'scratch-2']);
    const env = await admin!.post(`/v1/dashboard/projects/${made.body.id}/environments`, { name: 'tmp' });
    assert.equal(env.status, 201);
    expectError(await admin!.delete(`/v1/dashboard/projects/${made.body.id}`), 400, 'invalid_request', 'a project with environments');
    assert.equal((await admin!.patch(`/v1/dashboard/environments/${env.body.id}`, { name: 'tmp-2' })).body.name, 'tmp-2');
    expectError(await admin!.delete(`/v1/dashboard/environments/${env.body.id}`, { confirm: 'tmp' }), 400, 'invalid_request', 'the old name does not confirm');
    expectError(await admin!.delete(`/v1/dashboard/environments/${env.body.id}`), 400, 'invalid_request', 'no confirmation');
    assert.equal((await admin!.delete(`/v1/dashboard/environments/${env.body.id}`, { confirm: 'tmp-2' })).status, 204);
    expectError(await admin!.get(`/v1/dashboard/environments/${env.body.id}`), 404, 'not_found', 'a deleted environment');
    assert.equal((await admin!.delete(`/v1/dashboard/projects/${made.body.id}`)).status, 204);

    const publishable = await admin!.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'publishable' });
    assert.equal(publishable.status, 201);
    assert.match(publishable.body.key, /^pk_/);
    const revoked = await admin!.post(`/v1/dashboard/environments/${envId}/keys/${publishable.body.id}/revoke`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revokedAt);
    assert.equal((await admin!.post(`/v1/dashboard/environments/${envId}/keys/${publishable.body.id}/revoke`)).body.revokedAt, revoked.body.revokedAt);

    const added = await admin!.post(`/v1/dashboard/environments/${envId}/origins`, { origin: 'HTTPS://Other.Example.com/' });
    assert.deepEqual([added.status, added.body.origin], [201, 'https://other.example.com']);
    assert.equal((await admin!.post(`/v1/dashboard/environments/${envId}/origins`, { origin: 'https://other.example.com' })).status, 200);
    expectError(await admin!.post(`/v1/dashboard/environments/${envId}/origins`, { origin: 'https://x.example.com/path' }), 400, 'invalid_request', 'a path');
    expectError(await admin!.post(`/v1/dashboard/environments/${envId}/origins`, { origin: 'ftp://x.example.com' }), 400, 'invalid_request', 'a scheme');
    assert.equal((await admin!.delete(`/v1/dashboard/environments/${envId}/origins?origin=${encodeURIComponent('https://other.example.com')}`)).status, 204);
    const origins = await admin!.get(`/v1/dashboard/environments/${envId}/origins`);
    assert.deepEqual(
      origins.body.data.map((o: { origin: string }) => o.origin),
      ['https://app.example.com'],
    );

    expectError(await admin!.post(`/v1/dashboard/organizations/${acme}/invitations`, { role: 'viewer' }), 403, 'forbidden', 'admin invites');
    expectError(await admin!.put(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`, { role: 'admin' }), 403, 'forbidden', 'admin sets a role');
    expectError(await admin!.put(`/v1/dashboard/organizations/${acme}/members/${adam.userId}`, { role: 'owner' }), 403, 'forbidden', 'admin promotes self');
    expectError(await admin!.delete(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`), 403, 'forbidden', 'admin removes a member');
  });

  await t.test("another organization's ids, or anything in it, are 404 like unknown ids; malformed ids 400", async () => {
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/dashboard/organizations/${acme}`],
      ['GET', `/v1/dashboard/organizations/${acme}/members`],
      ['GET', `/v1/dashboard/organizations/${acme}/roles`],
      ['GET', `/v1/dashboard/organizations/${acme}/projects`],
      ['GET', `/v1/dashboard/organizations/${acme}/audit`],
      ['GET', `/v1/dashboard/organizations/${acme}/invitations`],
      ['POST', `/v1/dashboard/organizations/${acme}/projects`, { name: 'intruder' }],
      ['POST', `/v1/dashboard/organizations/${acme}/invitations`, { role: 'owner' }],
      ['PUT', `/v1/dashboard/organizations/${acme}/members/${oscar.userId}`, { role: 'owner' }],
      ['DELETE', `/v1/dashboard/organizations/${acme}/members/${vera.userId}`],
      ['GET', `/v1/dashboard/projects/${projectId}`],
      ['PATCH', `/v1/dashboard/projects/${projectId}`, { name: 'mine' }],
      ['DELETE', `/v1/dashboard/projects/${projectId}`],
      ['GET', `/v1/dashboard/projects/${projectId}/environments`],
      ['POST', `/v1/dashboard/projects/${projectId}/environments`, { name: 'mine' }],
      ['GET', `/v1/dashboard/environments/${envId}`],
      ['PATCH', `/v1/dashboard/environments/${envId}`, { name: 'mine' }],
      ['DELETE', `/v1/dashboard/environments/${envId}`, { confirm: 'staging' }],
      ['GET', `/v1/dashboard/environments/${envId}/keys`],
      ['POST', `/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' }],
      ['POST', `/v1/dashboard/environments/${envId}/keys/${keyId}/revoke`],
      ['GET', `/v1/dashboard/environments/${envId}/origins`],
      ['POST', `/v1/dashboard/environments/${envId}/origins`, { origin: 'https://evil.example' }],
      ['DELETE', `/v1/dashboard/environments/${envId}/origins?origin=https://app.example.com`],
    ];
    for (const [method, path, body] of attempts) {
      const foreign = await outsider!.call(method, path, body);
      expectError(foreign, 404, 'not_found', `outsider ${method} ${path}`);
      // the same answer as for an id that does not exist at all
      const unknownPath = path.replace(acme, UNKNOWN.org).replace(projectId, UNKNOWN.prj).replace(envId, UNKNOWN.env);
      const unknown = await outsider!.call(method, unknownPath, body);
      assert.deepEqual([unknown.status, unknown.body.code], [404, 'not_found'], `unknown ${method} ${unknownPath}`);
    }
    // the owner of acme sees acme, not globex
    expectError(await owner!.get(`/v1/dashboard/organizations/${globex}`), 404, 'not_found', 'owner reads another organization');
    // a key of one environment named under another (even in the same organization) is not found
    const otherEnv = await admin!.post(`/v1/dashboard/projects/${projectId}/environments`, { name: 'other' });
    expectError(await admin!.post(`/v1/dashboard/environments/${otherEnv.body.id}/keys/${keyId}/revoke`), 404, 'not_found', 'a key under another environment');
    expectError(await owner!.get('/v1/dashboard/organizations/acme'), 400, 'invalid_request', 'a name is not an id');
    expectError(await owner!.get(`/v1/dashboard/environments/${UNKNOWN.key}`), 400, 'invalid_request', 'a key id is not an environment id');
    // nothing of acme changed
    const keys = await admin!.get(`/v1/dashboard/environments/${envId}/keys`);
    assert.equal(keys.body.data.find((k: { id: string }) => k.id === keyId).revokedAt, null);
  });

  await t.test('owners change roles and remove members, never the last owner', async () => {
    expectError(
      await owner!.put(`/v1/dashboard/organizations/${acme}/members/${olivia.userId}`, { role: 'admin' }),
      400,
      'invalid_request',
      'the last owner demoted',
    );
    expectError(await owner!.delete(`/v1/dashboard/organizations/${acme}/members/${olivia.userId}`), 400, 'invalid_request', 'the last owner removed');
    expectError(await owner!.put(`/v1/dashboard/organizations/${acme}/members/${oscar.userId}`, { role: 'admin' }), 404, 'not_found', 'not a member');
    expectError(await owner!.put(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`, { role: 'superuser' }), 400, 'invalid_request', 'no such role');

    const promoted = await owner!.put(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`, { role: 'admin' });
    assert.deepEqual([promoted.status, promoted.body.role], [200, 'admin']);
    // the new role applies to her open session at once
    assert.equal((await viewer!.post(`/v1/dashboard/organizations/${acme}/projects`, { name: 'by-vera' })).status, 201);
    assert.equal((await owner!.put(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`, { role: 'owner' })).body.role, 'owner');
    // with two owners, one may step down
    assert.equal((await owner!.put(`/v1/dashboard/organizations/${acme}/members/${olivia.userId}`, { role: 'admin' })).status, 200);
    expectError(await owner!.put(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`, { role: 'viewer' }), 403, 'forbidden', 'no longer an owner');
    assert.equal((await viewer!.put(`/v1/dashboard/organizations/${acme}/members/${olivia.userId}`, { role: 'owner' })).status, 200);
    assert.equal((await owner!.put(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`, { role: 'viewer' })).status, 200);

    // removal takes access away at once; a member may also leave
    assert.equal((await owner!.delete(`/v1/dashboard/organizations/${acme}/members/${vera.userId}`)).status, 204);
    expectError(await viewer!.get(`/v1/dashboard/organizations/${acme}`), 404, 'not_found', 'a removed member');
    assert.deepEqual((await viewer!.get('/v1/dashboard/session')).body.organizations, []);
    assert.equal((await admin!.delete(`/v1/dashboard/organizations/${acme}/members/${adam.userId}`)).status, 204);
    const members = await owner!.get(`/v1/dashboard/organizations/${acme}/members`);
    assert.deepEqual(
      members.body.data.map((m: { email: string; role: string }) => [m.email, m.role]),
      [['olivia@example.com', 'owner']],
    );
  });

  await t.test('every change is in the audit log: who, what, when, target; paged newest first', async () => {
    const page = await owner!.get(`/v1/dashboard/organizations/${acme}/audit?limit=200`);
    assert.equal(page.status, 200);
    const entries = page.body.data as {
      id: string;
      at: string;
      actor: { kind: string; email: string | null };
      action: string;
      target: { type: string; id: string | null };
      details: Record<string, unknown>;
    }[];
    const actions = entries.map((e) => `${e.actor.email ?? e.actor.kind} ${e.action}`).reverse();
    for (const expected of [
      'cli organization.created',
      'cli member.added',
      'adam@example.com project.created',
      'adam@example.com environment.created',
      'adam@example.com key.created',
      'adam@example.com origin.added',
      'adam@example.com project.renamed',
      'adam@example.com environment.deleted',
      'adam@example.com project.deleted',
      'adam@example.com key.revoked',
      'adam@example.com origin.removed',
      'olivia@example.com member.role_changed',
      'olivia@example.com member.removed',
      'adam@example.com member.left',
    ]) {
      assert.ok(actions.includes(expected), `${expected} in\n${actions.join('\n')}`);
    }
    assert.ok(!actions.some((a) => a.startsWith('oscar')), 'refused attempts change nothing and are not recorded');
    const revoked = entries.find((e) => e.action === 'key.revoked')!;
    assert.equal(revoked.target.type, 'key');
    assert.match(String(revoked.details.prefix), /^pk_/);
    assert.ok(!JSON.stringify(entries).includes(key.body.key), 'no secret in the audit log');
    assert.ok(Date.parse(entries[0]!.at) >= Date.parse(entries[entries.length - 1]!.at));

    // pages: newest first, no overlap, the last page has no cursor
    const pages = await allPages(owner!, `/v1/dashboard/organizations/${acme}/audit?limit=5`);
    const seen: string[] = pages.flatMap((page) => page.body.data.map((e: { id: string }) => e.id));
    assert.deepEqual(
      seen,
      entries.map((e) => e.id),
    );
    expectError(await owner!.get(`/v1/dashboard/organizations/${acme}/audit?cursor=nonsense`), 400, 'invalid_request', 'a bad cursor');
    expectError(await owner!.get(`/v1/dashboard/organizations/${acme}/audit?limit=0`), 400, 'invalid_request', 'limit 0');
    // another organization's log is its own
    const other = await outsider!.get(`/v1/dashboard/organizations/${globex}/audit`);
    assert.deepEqual(other.body.data.map((e: { action: string }) => e.action).sort(), ['member.added', 'organization.created']);
  });
});
