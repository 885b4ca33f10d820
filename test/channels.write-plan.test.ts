import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import { createPool } from '@rtm/db';
import { LOAD_CHANNELS_SQL, SEEN_KEYS_SQL, WRITE_MENTIONS_SQL, WRITE_SQL, writeStatement } from '../apps/channel-node/src/commit-sql.ts';
import { createTestDatabase } from './helpers/database.ts';
import { readBinaryTextArray } from './helpers/binary-array.ts';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/**
 * The channel-node's pool runs with generic plans (`createPool(…, { genericPlans: true })`): the
 * commit statement is large, and with Postgres's default it was planned again on every
 * execution (pg_stat_statements: 2.1 s of planning against 0.9 s of execution for 4,200
 * commits), most of the database's CPU per message at moderate rates. A generic plan is made
 * without the parameters' values, so every statement the channel-node prepares must find its
 * rows by their keys in that plan too, on tables far larger than one batch: no sequential scan
 * of a table that grows with the service, channels or tenants.
 */
test('channels - the commit statements keep to their keys with generic plans', async (t) => {
  const db = await createTestDatabase(t);
  const env = await createEnvironment(db.pool, { organization: 'plan', project: 'plan', environment: 'plan' });
  await db.pool.query(`update environments set webhook_url = 'https://example.com/hook' where id = $1`, [env.environmentId]);
  // a thousand channels: large enough that a scan costs a commit more than its own rows do, small
  // enough that a generic plan, expecting ten rows from each array parameter, preferred the scan
  await db.pool.query(`insert into channels (environment_id, id, last_seq) select $1, 'room-' || g, 10 from generate_series(1, 1000) g`, [env.environmentId]);
  // other tenants with webhooks: a commit must look its own environments up, not read all of theirs
  await db.pool.query(
    `insert into environments (id, project_id, name, webhook_url)
     select 'env_other_' || g, project_id, 'other-' || g, 'https://example.com/other' from environments, generate_series(1, 500) g where id = $1`,
    [env.environmentId],
  );
  await db.pool.query(
    `insert into webhook_endpoints (id, environment_id, url, secret)
     select 'ep_other_' || g, 'env_other_' || g, 'https://example.com/other', 'enc:none' from generate_series(1, 500) g`,
  );
  // and the rows a mention's reader check and cap read: deployments, memberships, bans
  await db.pool.query(
    `insert into config_deployments (id, environment_id, config) select 'dep_other_' || g, 'env_other_' || g, '{}'::jsonb from generate_series(1, 500) g`,
  );
  await db.pool.query(
    `insert into memberships (environment_id, channel_id, user_id) select 'env_other_' || (g % 500 + 1), 'room-' || g, 'user-' || g from generate_series(1, 5000) g`,
  );
  await db.pool.query(
    `insert into bans (environment_id, channel_id, user_id) select 'env_other_' || (g % 500 + 1), '', 'user-' || g from generate_series(1, 1000) g`,
  );
  await db.pool.query(
    `insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, ts)
     select c.pk, s, 'msg_' || c.pk || '_' || s, 'message', 'server', '{}'::json, 'server', false, 0
     from channels c cross join generate_series(1, 10) s`,
  );
  await db.pool.query(`insert into idempotency_keys (channel_pk, key, message_id, seq, ts) select pk, 'k' || pk, 'msg_' || pk || '_1', 1, 0 from channels`);
  await db.pool.query('analyze');
  const { rows: sample } = await db.pool.query<{ pk: number }>(`select pk from channels order by pk limit 1`);
  const pk = sample[0]!.pk;

  const pool = createPool(db.url, { max: 1, name: 'plan', genericPlans: true });
  t.after(() => pool.end());
  const client = await pool.connect();
  try {
    assert.equal((await client.query('show plan_cache_mode')).rows[0].plan_cache_mode, 'force_generic_plan', 'the pool asks for generic plans');
    const planOf = async (name: string, text: string, values: unknown[]) => {
      await client.query('begin');
      try {
        await client.query({ name, text, values }); // prepares it (and runs it once, rolled back)
      } finally {
        await client.query('rollback');
      }
      const types = (await client.query(`select parameter_types::text[] as t from pg_prepared_statements where name = $1`, [name])).rows[0].t as string[];
      const literal = (v: unknown): string => {
        // a binary array parameter (libs/db binary-array.ts): the text literal of the same array
        if (Buffer.isBuffer(v)) return literal(readBinaryTextArray(v).values);
        if (Array.isArray(v)) return `{${v.map((x) => (x === null ? 'NULL' : `"${String(x).replace(/(["\\])/g, '\\$1')}"`)).join(',')}}`;
        return v === null ? '' : String(v);
      };
      const args = values.map((v, i) => (v === null ? `null::${types[i]}` : `${client.escapeLiteral(literal(v))}::${types[i]}`));
      await client.query('begin');
      try {
        const { rows } = await client.query(`explain (costs off, format json) execute ${name}(${args.join(', ')})`);
        return rows[0]['QUERY PLAN'] as { Plan: PlanNode }[];
      } finally {
        await client.query('rollback');
      }
    };
    const batch = {
      advanced: [{ pk, expected: 10, next: 11 }],
      messages: [
        {
          channel_pk: pk,
          seq: 11,
          id: 'msg_new',
          type: 'message',
          kind: 'user',
          content: '{"a":1}',
          sender_id: 'sam',
          sender_anon: false,
          to: null,
          mentions: ['bob'],
          ts: 1,
        },
      ],
      keys: [{ channel_pk: pk, key: 'fresh', message_id: 'msg_new', seq: 11, ts: 1 }],
      counted: new Map([[env.environmentId, 1]]),
    };
    const hooked = [
      { environmentId: env.environmentId, channelId: 'room-1', eventId: 'msg_new', type: 'message.published' as const, timestamp: 1, data: '{}' },
    ];
    const statements: [string, string, unknown[]][] = [
      ['load', LOAD_CHANNELS_SQL, [[env.environmentId], ['room-new'], [env.environmentId], ['room-2']]],
      ['seen', SEEN_KEYS_SQL, [[pk], ['k1']]],
    ];
    for (const mentions of [false, true]) {
      const notifications = mentions ? [{ id: 'ntf_1', channel_pk: pk, environment_id: env.environmentId, user_id: 'bob', payload: '{}' }] : [];
      const statement = writeStatement({ ...batch, notifications }, { now: 1, environments: [env.environmentId], hooked, hookless: [], pushLeaseMs: 30_000 });
      assert.equal(statement.text, mentions ? WRITE_MENTIONS_SQL : WRITE_SQL);
      statements.push([statement.name, statement.text, statement.values]);
    }
    for (const [name, text, values] of statements) {
      const root = (await planOf(name, text, values))[0]!.Plan;
      const scans = nodes(root)
        .filter((n) => n['Node Type'] === 'Seq Scan')
        .map((n) => n['Relation Name']);
      const grown = scans.filter((table) =>
        [
          'channels',
          'messages',
          'idempotency_keys',
          'webhook_deliveries',
          'notifications',
          'environments',
          'webhook_endpoints',
          'config_deployments',
          'memberships',
          'bans',
        ].includes(table ?? ''),
      );
      assert.deepEqual(grown, [], `${name}: no sequential scan of a table that grows (${grown.join(', ')} in ${JSON.stringify(root)})`);
      const keyed = name === 'seen' ? 'idempotency_keys' : 'channels';
      assert.ok(
        nodes(root).some((n) => n['Relation Name'] === keyed && /Index/.test(n['Node Type'])),
        `${name}: ${keyed} by an index`,
      );
    }
  } finally {
    client.release();
  }
});
