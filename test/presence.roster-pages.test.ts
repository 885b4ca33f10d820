import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';

type Entry = { userId: string; role: string; online: boolean };

test('presence - a big roster is read in pages: every entry once, in order, online users merged, bad pages refused', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);

  // an open channel with 2,345 members (mixed case and punctuation: byte order is the order),
  // and three users online who are not members, one on each side of a page boundary
  const members = Array.from({ length: 2_345 }, (_, i) => `${i % 3 === 0 ? 'U' : 'u'}${String(i).padStart(5, '0')}${i % 7 === 0 ? '.x' : ''}`);
  await cluster.db.pool.query(
    `insert into memberships (environment_id, channel_id, user_id, role)
     select $1, 'stage', u, case when n % 100 = 0 then 'moderator' else 'member' end from unnest($2::text[]) with ordinality as t(u, n)`,
    [env.environmentId, members],
  );
  const guests = ['U00001.guest', 'u01000a', 'zz-guest'];
  for (const [i, guest] of guests.entries()) {
    const token = await mintToken(gwA.controlUrl, env.secretKey, guest);
    const socket = openSocket(i % 2 ? gwB.realtimeUrl : gwA.realtimeUrl, `/v1/channels/stage?token=${token}`);
    await socket.waitFor(`${guest} ready`, (f) => f.op === 'ready');
  }
  const everyone = [...members, ...guests].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  await eventually('the guests online in the roster', async () => {
    const { body } = await control.get('/v1/channels/stage/members?limit=1');
    return body.members.length === 1 && typeof body.nextCursor === 'string';
  });

  // control plane, default pages (1,000), then a user on the edge with pages of 700
  const readAll = async (get: (cursor?: string) => Promise<{ status: number; body: { members: Entry[]; nextCursor: string | null } }>) => {
    const pages: Entry[][] = [];
    let cursor: string | undefined;
    do {
      const res = await get(cursor);
      assert.equal(res.status, 200);
      pages.push(res.body.members);
      cursor = res.body.nextCursor ?? undefined;
    } while (cursor !== undefined && pages.length < 20);
    return pages;
  };
  await eventually('every guest online', async () => {
    const pages = await readAll((cursor) => control.get(`/v1/channels/stage/members${cursor ? `?cursor=${cursor}` : ''}`));
    return guests.every((g) => pages.flat().some((e) => e.userId === g && e.online));
  });
  const byControl = await readAll((cursor) => control.get(`/v1/channels/stage/members${cursor ? `?cursor=${cursor}` : ''}`));
  assert.deepEqual(
    byControl.map((p) => p.length),
    [1_000, 1_000, 348],
    'default page: 1,000',
  );
  assert.deepEqual(
    byControl.flat().map((e) => e.userId),
    everyone,
    'every member and online guest once, in byte order',
  );
  const entry = (id: string) => byControl.flat().find((e) => e.userId === id)!;
  assert.deepEqual(entry('U00000.x'), { userId: 'U00000.x', role: 'member', online: false });
  assert.deepEqual(entry('U00099'), { userId: 'U00099', role: 'moderator', online: false });
  assert.deepEqual(entry('zz-guest'), { userId: 'zz-guest', role: 'member', online: true });

  const reader = await mintToken(gwA.controlUrl, env.secretKey, 'reader');
  const edge = client(gwB.realtimeUrl, reader!);
  const byEdge = await readAll((cursor) => edge.get(`/v1/channels/stage/members?limit=700${cursor ? `&cursor=${cursor}` : ''}`));
  assert.deepEqual(
    byEdge.map((p) => p.length),
    [700, 700, 700, 248],
  );
  assert.deepEqual(byEdge.flat(), byControl.flat());

  // refusals: a limit out of range, a cursor that is not one of this list
  assert.equal(errorCode(await control.get('/v1/channels/stage/members?limit=1001')), 'invalid_request');
  assert.equal(errorCode(await control.get('/v1/channels/stage/members?limit=0')), 'invalid_request');
  assert.equal(errorCode(await control.get(`/v1/channels/stage/members?cursor=${Buffer.from('no spaces allowed').toString('base64url')}`)), 'invalid_request');
});
