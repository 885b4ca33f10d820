/**
 * The server locator against a real Postgres: a DATABASE_URL listing a dead host and a live one
 * finds the live one; a server that refuses new sessions at connect time with a code outside the
 * connection errors (a database closed to connections: 55000) is a 503-kind error (NoServerError,
 * 08001) for the request that meets it, never an internal error, and the locator searches again
 * and comes back once the server accepts sessions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import pg from 'pg';
import { createPool, isConnectionError, locatorFor, type LocatorEvent } from '@rtm/db';
import { createTestDatabase } from './helpers/database.ts';

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('db - server locator: a dead host skipped, a connect-time refusal answered as unavailable', async (t) => {
  const db = await createTestDatabase(t);
  const url = `postgres://postgres@127.0.0.1:${await deadPort()},127.0.0.1:5432/${db.name}?target_session_attrs=read-write`;
  const events: LocatorEvent[] = [];
  locatorFor(url).observe((event) => events.push(event));
  const pool = createPool(url, { max: 2, name: 'locator-test' });
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  try {
    assert.deepEqual((await pool.query('select 1 as one')).rows, [{ one: 1 }]);
    assert.deepEqual(
      events.filter((e) => e.kind === 'search').map((e) => [e.outcome, e.kind === 'search' && e.host]),
      [['found', '127.0.0.1:5432']],
    );

    // the database closes to new sessions and its open ones end
    await admin.query(`alter database ${db.name} allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [db.name]);
    for (let attempt = 0; attempt < 3; attempt++) {
      const error = await pool.query('select 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error, 'no session can be opened');
      assert.ok(
        isConnectionError(error),
        `attempt ${attempt}: ${(error as Error).name} ${(error as { code?: string }).code} ${(error as Error).message} is a connection error (503)`,
      );
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
    assert.ok(
      events.some((e) => e.kind === 'search' && e.outcome === 'none'),
      'the locator searched again and found no server',
    );

    // open again: found at the next search (back-off at most 1 s)
    await admin.query(`alter database ${db.name} allow_connections true`);
    const started = Date.now();
    for (;;) {
      const ok = await pool.query('select 1').then(
        () => true,
        () => false,
      );
      if (ok) break;
      assert.ok(Date.now() - started < 10_000, 'the server is found again');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    // before the database is dropped (the helper's clean-up): open, no session of ours left
    await admin.query(`alter database ${db.name} allow_connections true`);
    await pool.end();
    await admin.end();
  }
});
