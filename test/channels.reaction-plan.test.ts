/**
 * A reaction group's read of what its users already have on the message
 * (apps/channel-node change-sql.ts REACTIONS_READ_SQL) must cost the group's size, not the
 * message's reactions. The channel-node plans with generic plans (`createPool(…, { genericPlans:
 * true })`), and during a storm message_reactions grows faster than autovacuum analyses it: on a
 * table without statistics, the first form of the read scanned every reaction of the message once
 * per user of the group (100-300 ms per group at 10,000 reactions: docs/benchmarks.md, "Reaction
 * storms"). Checked here on such a table: the plan looks each user up in the
 * (channel_pk, seq, user_id, type) index, and never scans the message's reactions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import { createPool } from '@rtm/db';
import { REACTIONS_READ_SQL } from '../apps/channel-node/src/change-sql.ts';
import { createTestDatabase } from './helpers/database.ts';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Join Filter'?: string;
  Plans?: PlanNode[];
}
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

test("channels - a reaction group reads its users' reactions by index, whatever the message holds, with generic plans and no statistics", async (t) => {
  const db = await createTestDatabase(t);
  const env = await createEnvironment(db.pool, { organization: 'plan', project: 'plan', environment: 'plan' });
  const { rows } = await db.pool.query<{ pk: number }>(`insert into channels (environment_id, id, last_seq) values ($1, 'storm', 1) returning pk`, [
    env.environmentId,
  ]);
  const pk = rows[0]!.pk;
  await db.pool.query(
    `insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, ts) values ($1, 1, 'msg_1', 'message', 'server', '{}', 'server', false, 0)`,
    [pk],
  );
  // a storm's reactions, never analysed
  await db.pool.query(
    `insert into message_reactions (channel_pk, seq, type, user_id, created_at)
     select $1, 1, (array['fire', 'clap', 'wow', 'sad'])[1 + g % 4], 'fan-' || g, g from generate_series(1, 10000) g`,
    [pk],
  );
  const { rows: stats } = await db.pool.query<{ n: number }>(`select count(*)::int as n from pg_stats where tablename = 'message_reactions'`);
  assert.equal(stats[0]!.n, 0, 'no statistics');

  const pool = createPool(db.url, { max: 1, name: 'plan', genericPlans: true });
  t.after(() => pool.end());
  const client = await pool.connect();
  try {
    const users = Array.from({ length: 500 }, (_, i) => `fan-${9_800 + i}`);
    const read = await client.query<{ type: string; user_id: string }>({ name: 'reactions_read', text: REACTIONS_READ_SQL, values: [pk, 1, users] });
    assert.equal(read.rows.length, 201, "the group's users that have a reaction (fan-9800 … fan-10000), each once");
    assert.deepEqual(new Set(read.rows.map((r) => r.user_id)).size, 201);
    const literal = `{${users.map((u) => `"${u}"`).join(',')}}`;
    const explained = await client.query(`explain (costs off, format json) execute reactions_read(${pk}, 1, ${client.escapeLiteral(literal)})`);
    const root = (explained.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
    const reads = nodes(root).filter((n) => n['Relation Name'] === 'message_reactions');
    assert.ok(reads.length > 0, JSON.stringify(root));
    for (const node of reads) {
      assert.match(node['Node Type'], /Index/, `message_reactions by an index, not ${node['Node Type']}: ${JSON.stringify(root)}`);
      assert.equal(node['Index Name'], 'message_reactions_message_user_idx', JSON.stringify(node));
      assert.match(node['Index Cond'] ?? '', /user_id/, `each user is a lookup, not a filter over the message's reactions: ${JSON.stringify(node)}`);
    }
    assert.ok(
      nodes(root).every((n) => !n['Join Filter']),
      `no join that compares every reaction with every user: ${JSON.stringify(root)}`,
    );
  } finally {
    client.release();
  }
});
