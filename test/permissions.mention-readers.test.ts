import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment, namespaceOfSql, userReadsChannelSql } from '@rtm/auth';
import { decide, effectiveAccess, resolveNamespace, type ChannelAccessMode, type ChannelRole, type Namespace } from '@rtm/rules';
import { createTestDatabase } from './helpers/database.ts';

/**
 * The SQL form of the read rule that decides who a mention reaches (libs/auth/src/channel-sql.ts,
 * run by the channel-node's commit) against `decide` (the rule every gateway applies to tokens),
 * over every combination of the facts Postgres holds: the channel's own access, the namespace
 * (longest prefix, with and without access, refusing anonymous readers), the environment's
 * default, the role, bans (on the channel, environment-wide, expired, on another channel) and
 * anonymous ids. A token's capabilities are not a user's and are left out on both sides.
 */
test('permissions - who a mention may reach: the SQL rule agrees with decide() on every combination', async (t) => {
  const db = await createTestDatabase(t);
  const namespaces: Namespace[] = [
    { prefix: 'm.', access: 'members' },
    { prefix: 'o.', access: 'open' },
    { prefix: 'p.' },
    { prefix: 'na.', anonymous: { subscribe: false } },
    // longer than `m.` and without access: channels under it take the environment's default
    { prefix: 'm.x', history: false },
  ];
  const prefixes = ['m.', 'o.', 'p.', 'na.', 'm.x', 'none.'];
  const owns: (ChannelAccessMode | null)[] = [null, 'open', 'members'];
  const roles: (ChannelRole | null)[] = [null, 'member', 'readonly', 'moderator'];
  const bans = ['none', 'channel', 'environment', 'expired', 'elsewhere'] as const;
  const channels = prefixes.flatMap((prefix) => owns.map((own) => ({ id: `${prefix}c-${own ?? 'inherit'}`, own })));
  const users = roles.flatMap((role) =>
    bans.flatMap((ban) => [false, true].map((anon) => ({ id: `${anon ? 'anon_' : ''}u-${role ?? 'none'}-${ban}`, role, ban, anon }))),
  );

  let checked = 0;
  for (const environmentDefault of ['open', 'members'] as const) {
    const env = await createEnvironment(db.pool, { organization: `o-${environmentDefault}`, project: 'p', environment: 'e' });
    const environmentId = env.environmentId;
    await db.pool.query(`insert into config_deployments (id, environment_id, config, activated_at) values ($1, $2, $3, now())`, [
      `dep_${environmentDefault}`,
      environmentId,
      JSON.stringify({ channels: { access: environmentDefault }, namespaces }),
    ]);
    await db.pool.query(`update environments set active_deployment_id = $2, default_access = $3 where id = $1`, [
      environmentId,
      `dep_${environmentDefault}`,
      environmentDefault,
    ]);
    for (const channel of channels) {
      await db.pool.query(`insert into channels (environment_id, id, access) values ($1, $2, $3)`, [environmentId, channel.id, channel.own]);
    }
    for (const user of users) {
      for (const channel of channels) {
        if (user.role) {
          await db.pool.query(`insert into memberships (environment_id, channel_id, user_id, role) values ($1, $2, $3, $4)`, [
            environmentId,
            channel.id,
            user.id,
            user.role,
          ]);
        }
        if (user.ban === 'channel' || user.ban === 'expired') {
          await db.pool.query(`insert into bans (environment_id, channel_id, user_id, expires_at) values ($1, $2, $3, $4)`, [
            environmentId,
            channel.id,
            user.id,
            user.ban === 'expired' ? new Date(Date.now() - 60_000) : null,
          ]);
        }
      }
      if (user.ban === 'environment') {
        await db.pool.query(`insert into bans (environment_id, channel_id, user_id) values ($1, '', $2)`, [environmentId, user.id]);
      }
      if (user.ban === 'elsewhere') {
        await db.pool.query(`insert into bans (environment_id, channel_id, user_id) values ($1, 'another', $2)`, [environmentId, user.id]);
      }
    }

    const pairs = channels.flatMap((channel) => users.map((user) => ({ channel, user })));
    // the fragments MENTIONS_SQL (apps/channel-node/src/commit-sql.ts) puts together, joined the same way
    const { rows } = await db.pool.query<{ channel_id: string; user_id: string; reads: boolean }>(
      `select c.id as channel_id, v.user_id,
              ${userReadsChannelSql({
                environment: 'c.environment_id',
                user: 'v.user_id',
                channel: 'c.id',
                own: 'c.access',
                namespace: 'best.ns',
                environmentDefault: 'e.default_access',
              })} as reads
       from unnest($2::text[], $3::text[]) as v(channel_id, user_id)
       join channels c on c.environment_id = $1 and c.id = v.channel_id
       join environments e on e.id = c.environment_id
       left join config_deployments d on d.id = e.active_deployment_id
       cross join lateral (select ${namespaceOfSql(`d.config -> 'namespaces'`, 'c.id')} as ns) best`,
      [environmentId, pairs.map((p) => p.channel.id), pairs.map((p) => p.user.id)],
    );
    assert.equal(rows.length, pairs.length);
    const sql = new Map(rows.map((row) => [`${row.channel_id} ${row.user_id}`, row.reads]));
    for (const { channel, user } of pairs) {
      const namespace = resolveNamespace(namespaces, channel.id);
      const live = user.ban === 'channel' || user.ban === 'environment';
      const expected = decide(
        {
          channelId: channel.id,
          anonymous: user.anon,
          capabilities: undefined,
          access: effectiveAccess(channel.own, namespace, environmentDefault),
          namespace,
          role: user.role,
          ban: live ? { reason: null } : null,
        },
        'subscribe',
      ).ok;
      assert.equal(sql.get(`${channel.id} ${user.id}`), expected, `${environmentDefault} default, channel ${channel.id}, user ${user.id}`);
      checked++;
    }
  }
  assert.equal(checked, 2 * 18 * 40);
});
