/**
 * GET /v1/stats and its dashboard twin over usage seeded by SQL in two environments, rolled up by
 * the dispatchers' `usage_rollup` job: by minute, hour, day and month, direction, limit, start
 * and end, validation, the newest interval before any rollup, a late minute, re-runs changing
 * nothing, and each environment reading only its own usage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import { createServerClient } from '@rtm/server';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { expectedEntries, insertUsage, runRollup, settledBefore, startOf, storedUsage, usageRow, rollUp, type UsageRow } from './helpers/usage.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const PASSWORD = 'correct horse battery staple';

test('stats: rolled-up usage by minute, hour, day and month, per environment', async (t) => {
  // no dispatcher yet: its first rollup then finds every seeded row
  // the rows are seeded: the gateway's own counting of these requests would add to them
  const cluster = await startCluster(t, { gateways: 1, dispatchers: 0, env: { USAGE_COUNTING: 'off' } });
  const pool = cluster.db.pool;
  const gateway = cluster.gateways[0]!;
  const a = await cluster.createEnvironment('stats-a');
  const b = await createEnvironment(pool, { organization: 'other-org', project: 'p', environment: 'stats-b' });

  const now = (await pool.query<{ now: Date }>('select now() as now')).rows[0]!.now.getTime();
  const hour = startOf('hour', now);
  const minute = startOf('minute', now);
  let seed = 1;
  const row = (at: number) => usageRow(at, seed++);
  const aMinutes: UsageRow[] = [
    row(hour - 30 * HOUR),
    row(hour - 30 * HOUR + MIN),
    row(hour - 30 * HOUR + 59 * MIN),
    row(hour - 29 * HOUR + 5 * MIN),
    row(hour - 5 * HOUR + 2 * MIN),
    row(hour - 5 * HOUR + 3 * MIN),
    row(hour - 3 * HOUR + 10 * MIN),
    row(minute - 10 * MIN),
    row(minute - 3 * MIN),
  ];
  // days of earlier months (their minutes and hours long pruned): months add them up
  const aDays: UsageRow[] = [row(startOf('day', now) - 70 * DAY), row(startOf('day', now) - 71 * DAY), row(startOf('day', now) - 100 * DAY)];
  const bMinutes = [row(hour - 5 * HOUR + 2 * MIN), row(hour - 5 * HOUR + 7 * MIN), row(minute - 10 * MIN)];
  const bDays = [row(startOf('day', now) - 70 * DAY)];
  await insertUsage(pool, 'usage_minutes', a.environmentId, aMinutes);
  await insertUsage(pool, 'usage_days', a.environmentId, aDays);
  await insertUsage(pool, 'usage_minutes', b.environmentId, bMinutes);
  await insertUsage(pool, 'usage_days', b.environmentId, bDays);

  // two dispatchers: one rollup chain between them
  await Promise.all([cluster.start('dispatcher'), cluster.start('dispatcher')]);
  await eventually('the first usage rollup', async () => (await settledBefore(pool)) !== null, 60_000);

  await t.test('the rollup job wrote hours, days and months: sums, and the largest minute for the peaks', async () => {
    assert.deepEqual(await storedUsage(pool, 'usage_hours', a.environmentId), rollUp('hour', aMinutes));
    assert.deepEqual(await storedUsage(pool, 'usage_days', a.environmentId), rollUp('day', [...aMinutes, ...aDays]));
    assert.deepEqual(await storedUsage(pool, 'usage_months', a.environmentId), rollUp('month', [...aMinutes, ...aDays]));
    assert.deepEqual(await storedUsage(pool, 'usage_months', b.environmentId), rollUp('month', [...bMinutes, ...bDays]));
  });

  const api = client(gateway.controlUrl, a.secretKey);
  const wide = { minute: hour - 31 * HOUR, hour: hour - 31 * HOUR, day: now - 101 * DAY, month: now - 5 * 31 * DAY };
  const stats = async (query: string, key = a.secretKey) => {
    const res = await client(gateway.controlUrl, key).get(`/v1/stats?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };

  await t.test('each unit, newest first, every counter', async () => {
    const aAll = [...aMinutes, ...aDays];
    assert.deepEqual(await stats(`unit=minute&start=${wide.minute}&limit=1000`), expectedEntries('minute', aMinutes));
    assert.deepEqual(await stats(`unit=hour&start=${wide.hour}&limit=1000`), expectedEntries('hour', aMinutes));
    assert.deepEqual(await stats(`unit=day&start=${wide.day}&limit=1000`), expectedEntries('day', aAll));
    assert.deepEqual(await stats(`unit=month&start=${wide.month}&limit=1000`), expectedEntries('month', aAll));
  });

  await t.test('defaults: minutes, newest first, the last 100 minutes', async () => {
    const recent = aMinutes.filter((r) => r.at > now - 100 * MIN);
    assert.equal(recent.length, 2);
    assert.deepEqual(await stats(''), expectedEntries('minute', recent));
  });

  await t.test('direction, limit, start and end (ISO 8601 or epoch ms)', async () => {
    const hours = expectedEntries('hour', aMinutes);
    assert.deepEqual(await stats(`unit=hour&start=${wide.hour}&direction=forwards&limit=2`), hours.slice().reverse().slice(0, 2));
    assert.deepEqual(await stats(`unit=hour&start=${wide.hour}&limit=2`), hours.slice(0, 2));
    // the intervals whose start lies within [start, end]
    const from = new Date(hour - 30 * HOUR + MIN).toISOString();
    const to = hour - 5 * HOUR + 2 * MIN;
    assert.deepEqual(
      await stats(`unit=minute&start=${encodeURIComponent(from)}&end=${to}&limit=1000`),
      expectedEntries(
        'minute',
        aMinutes.filter((r) => r.at >= hour - 30 * HOUR + MIN && r.at <= to),
      ),
    );
    // an hour starting after `start` is in; the one `start` falls inside is not
    assert.deepEqual(
      await stats(`unit=hour&start=${hour - 30 * HOUR + 1}&end=${encodeURIComponent(new Date(hour - 5 * HOUR).toISOString())}`),
      expectedEntries(
        'hour',
        aMinutes.filter((r) => r.at >= hour - 29 * HOUR && r.at < hour - 4 * HOUR),
      ),
    );
    // nothing in the window: an empty list
    assert.deepEqual(await stats(`unit=day&start=2001-01-01&end=2001-02-01T00:00:00Z`), []);
  });

  await t.test('the newest hour, day and month hold a minute the rollup has not seen yet', async () => {
    const fresh = usageRow(minute, 500);
    await insertUsage(pool, 'usage_minutes', a.environmentId, [fresh]);
    aMinutes.push(fresh);
    const aAll = [...aMinutes, ...aDays];
    assert.deepEqual(await stats(`unit=hour&start=${wide.hour}&limit=1000`), expectedEntries('hour', aMinutes));
    assert.deepEqual(await stats(`unit=day&start=${wide.day}&limit=1000`), expectedEntries('day', aAll));
    assert.deepEqual(await stats(`unit=month&start=${wide.month}&limit=1000`), expectedEntries('month', aAll));
  });

  await t.test('a late minute of the previous hour is rolled in by the next run; a re-run changes nothing', async () => {
    const late = usageRow(hour - HOUR + 59 * MIN, 700);
    await insertUsage(pool, 'usage_minutes', a.environmentId, [late]);
    aMinutes.push(late);
    await runRollup(pool);
    const rolledHour = (await storedUsage(pool, 'usage_hours', a.environmentId)).find((r) => r.at === hour - HOUR);
    assert.deepEqual(
      rolledHour,
      rollUp('hour', aMinutes).find((r) => r.at === hour - HOUR),
    );
    const tables = async () => Promise.all(['usage_hours', 'usage_days', 'usage_months'].map((table) => storedUsage(pool, table, a.environmentId)));
    const before = await tables();
    await runRollup(pool);
    assert.deepEqual(await tables(), before);
  });

  await t.test('a killed dispatcher leaves the chain to the other', async () => {
    await cluster.dispatchers[0]!.kill();
    await runRollup(pool);
    // the killed one's job, unlocked by the recovery, may run once more beside the chain; the
    // job key folds what either schedules next into one waiting job
    await eventually(
      'one waiting rollup job',
      async () => {
        const { rows } = await pool.query<{ n: number }>(
          `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'usage_rollup' and locked_at is null`,
        );
        return rows[0]!.n === 1;
      },
      60_000,
    );
  });

  await t.test('bad queries are 400 invalid_request', async () => {
    for (const query of [
      'unit=week',
      'unit=',
      'direction=up',
      'limit=0',
      'limit=1001',
      'limit=abc',
      'limit=1.5',
      'start=yesterday',
      'end=2026-02-30T00:00:00Z',
      'start=2026-01-01T00:00:00',
      'start=-5',
      `start=${now}&end=${now - 1}`,
      'start=2026-03-01&end=2026-02-01',
      'foo=1',
      'end=99999999999999999',
    ]) {
      const res = await api.get(`/v1/stats?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(errorCode(res), 'invalid_request', query);
    }
  });

  await t.test('a secret key reads its own environment only', async () => {
    assert.deepEqual(await stats(`unit=month&start=${wide.month}&limit=1000`, b.secretKey), expectedEntries('month', [...bMinutes, ...bDays]));
    assert.deepEqual(await stats(`unit=minute&start=${wide.minute}&limit=1000`, b.secretKey), expectedEntries('minute', bMinutes));
    const anonymous = await client(gateway.controlUrl).get('/v1/stats');
    assert.equal(anonymous.status, 401);
    const publishable = await client(gateway.controlUrl, a.publishableKey).get('/v1/stats');
    assert.ok([401, 403].includes(publishable.status), `${publishable.status}`);
  });

  await t.test('the server SDK reads the same', async () => {
    const rtm = createServerClient({ url: gateway.controlUrl, secretKey: a.secretKey });
    const { data } = await rtm.stats({ unit: 'day', start: new Date(wide.day), limit: 1000 });
    assert.deepEqual(data, expectedEntries('day', [...aMinutes, ...aDays]));
  });

  await t.test('the dashboard twin: any member of the organization, nobody else', async () => {
    await createUser(pool, { email: 'viewer@example.com', password: PASSWORD, organization: a.organizationId, role: 'viewer' });
    const viewer = new DashboardClient(gateway.controlUrl);
    assert.equal((await viewer.signIn('viewer@example.com', PASSWORD)).status, 200);
    const path = (envId: string, query: string) => `/v1/dashboard/environments/${envId}/stats?${query}`;
    const res = await viewer.get(path(a.environmentId, `unit=hour&start=${wide.hour}&limit=1000`));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, expectedEntries('hour', aMinutes));
    assert.deepEqual(res.body.data, await stats(`unit=hour&start=${wide.hour}&limit=1000`));
    const other = await viewer.get(path(b.environmentId, 'unit=hour'));
    assert.equal(other.status, 404);
    assert.equal(errorCode(other), 'not_found');
    const bad = await viewer.get(path(a.environmentId, 'unit=year'));
    assert.equal(bad.status, 400);
    assert.equal(errorCode(bad), 'invalid_request');
    const signedOut = await new DashboardClient(gateway.controlUrl).get(path(a.environmentId, 'unit=hour'));
    assert.equal(signedOut.status, 401);
  });
});
