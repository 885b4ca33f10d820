import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createTestDatabase } from './helpers/database.ts';
import { admin, runAdmin } from './helpers/admin.ts';

test('admin CLI - create-environment --json prints exactly the documented object; keys are stored hashed', async (t) => {
  const db = await createTestDatabase(t);
  const env = { DATABASE_URL: db.url, NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', NATS_PREFIX: 'tadmin' };

  const created = await runAdmin(env, ['create-environment', '--org', 'acme', '--project', 'chat', '--env', 'dev', '--json']);
  assert.equal(created.code, 0, created.stderr);
  // one JSON object on one line, nothing else on stdout
  assert.match(created.stdout, /^\{[^\n]*\}\n$/);
  const first = JSON.parse(created.stdout) as Record<string, string>;
  assert.deepEqual(Object.keys(first).sort(), ['environmentId', 'organizationId', 'projectId', 'publishableKey', 'secretKey']);
  assert.match(first.organizationId!, /^org_/);
  assert.match(first.projectId!, /^prj_/);
  assert.match(first.environmentId!, /^env_/);
  // at least 128 bits of randomness after the prefix (base64url: 6 bits a character)
  assert.match(first.secretKey!, /^sk_[A-Za-z0-9_-]{22,}$/);
  assert.match(first.publishableKey!, /^pk_[A-Za-z0-9_-]{22,}$/);

  await t.test('only hashes of the keys are stored', async () => {
    const { rows } = await db.pool.query('select * from api_keys where environment_id = $1', [first.environmentId]);
    assert.equal(rows.length, 2);
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(first.secretKey!.slice(3)), 'secret key stored in clear');
    assert.ok(!dump.includes(first.publishableKey!.slice(3)), 'publishable key stored in clear');
    const hashes = rows.map((r) => Buffer.from(r.key_hash).toString('hex')).sort();
    const expected = [first.secretKey!, first.publishableKey!].map((k) => createHash('sha256').update(k).digest('hex')).sort();
    assert.deepEqual(hashes, expected);
  });

  await t.test('organizations and projects are reused by name; environments are listed', async () => {
    const second = await admin(env, ['create-environment', '--org', 'acme', '--project', 'chat', '--env', 'prod', '--json']);
    assert.equal(second.organizationId, first.organizationId);
    assert.equal(second.projectId, first.projectId);
    assert.notEqual(second.environmentId, first.environmentId);
    assert.notEqual(second.secretKey, first.secretKey);
    const list = await admin<{ environmentId: string; environment: string }[]>(env, ['list-environments', '--json']);
    assert.deepEqual(
      list.map((e) => [e.environmentId, e.environment]),
      [
        [first.environmentId, 'dev'],
        [second.environmentId, 'prod'],
      ],
    );
  });

  await t.test('operator mistakes exit 64 with a usage message and change nothing', async () => {
    const duplicate = await runAdmin(env, ['create-environment', '--org', 'acme', '--project', 'chat', '--env', 'dev', '--json']);
    assert.equal(duplicate.code, 64);
    assert.match(duplicate.stderr, /already exists/);
    const missing = await runAdmin(env, ['create-environment', '--org', 'acme', '--json']);
    assert.equal(missing.code, 64);
    assert.match(missing.stderr, /--project is required/);
    const unknownCommand = await runAdmin(env, ['drop-everything']);
    assert.equal(unknownCommand.code, 64);
    assert.match(unknownCommand.stderr, /usage: admin/);
    const badKind = await runAdmin(env, ['create-key', '--env', first.environmentId!, '--kind', 'root']);
    assert.equal(badKind.code, 64);
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from environments');
    assert.equal(rows[0]!.n, 2);
  });
});
