import { test } from 'node:test';
import assert from 'node:assert/strict';
import { committedDeliveries, pushNotices, readNotice, withdrawnEntries } from '@rtm/webhooks';
import * as webhooks from '@rtm/webhooks';

const lease = '2026-12-01 23:00:00.123456+00';
const secrets = { secret: 'v2:ciphertext', previous_secret: null, rotated_at: null };
const row = (id: string, environmentId: string, eventId: string, leased = true) => [
  id,
  environmentId,
  null,
  'https://hooks.example.com/in',
  eventId,
  'message.published',
  leased ? lease : null,
  secrets,
  null,
];

test('a committed row leased to its owner travels with its body; an unleased one, or one without its body, as a wake-up', () => {
  const bodies = new Map([
    ['msg_1', '{"id":"msg_1", "data":{ "a" :1}}'],
    ['msg_2', '{"id":"msg_2"}'],
  ]);
  const deliveries = committedDeliveries(
    [row('dlv_1', 'env_a', 'msg_1'), row('dlv_2', 'env_a', 'msg_2', false), row('dlv_3', 'env_b', 'msg_3')],
    (id) => bodies.get(id),
    30_000,
  );
  assert.deepEqual(deliveries, [
    {
      id: 'dlv_1',
      environmentId: 'env_a',
      pushed: {
        lease,
        leaseMs: 30_000,
        endpointId: null,
        url: 'https://hooks.example.com/in',
        eventType: 'message.published',
        eventId: 'msg_1',
        body: bodies.get('msg_1'),
        secrets,
        rateLimit: null,
      },
    },
    { id: 'dlv_2', environmentId: 'env_a' },
    { id: 'dlv_3', environmentId: 'env_b' },
  ]);
  // what the owner reads is what the commit wrote, the body's bytes included
  const notices = pushNotices(deliveries, (environmentId) => (environmentId === 'env_a' ? 3 : 9));
  assert.deepEqual(
    notices.map((n) => n.partition),
    [3, 9],
  );
  const read = notices.flatMap((n) => readNotice(JSON.parse(JSON.stringify(n.entries))));
  assert.deepEqual(read, deliveries);
});

test('a notice carries at most 256 KiB of bodies; a body over 128 KiB goes as a wake-up', () => {
  const big = 'x'.repeat(100 * 1024);
  const huge = 'y'.repeat(129 * 1024);
  const rows = [row('d1', 'e', 'm1'), row('d2', 'e', 'm2'), row('d3', 'e', 'm3'), row('d4', 'e', 'm4')];
  const bodies = new Map([
    ['m1', big],
    ['m2', big],
    ['m3', big],
    ['m4', huge],
  ]);
  const deliveries = committedDeliveries(rows, (id) => bodies.get(id), 1_000);
  assert.equal(deliveries[3]!.pushed, undefined, 'too large to carry: claimed by the owner instead');
  const notices = pushNotices(deliveries, () => 1);
  assert.deepEqual(
    notices.map((n) => n.entries.map((e) => e[0])),
    [
      ['d1', 'd2'],
      ['d3', 'd4'],
    ],
  );
  for (const notice of notices) {
    const carried = notice.entries.reduce((sum, e) => sum + (typeof e[8] === 'string' ? e[8].length : 0), 0);
    assert.ok(carried <= 256 * 1024, `${carried} characters of bodies in one notice`);
  }
});

test("a notice's entries that are neither form are left out; a malformed row is read as a wake-up", () => {
  const full = ['d1', 'e1', lease, 1_000, 'ep_1', 'https://h/x', 'message.published', 'm1', '{}', secrets, 5];
  const malformed = (id: string, at: number, value: unknown) => Object.assign([...full], { 0: id, [at]: value });
  assert.deepEqual(
    readNotice([
      full,
      ['d2', 'e1'],
      ['d3'],
      [3, 'e1'],
      'd4',
      null,
      { id: 'd5' },
      malformed('d6', 3, 'soon'),
      malformed('d7', 3, 0),
      malformed('d8', 9, { secret: 7 }),
      malformed('d9', 10, -1),
      full.slice(0, 9),
    ]),
    [
      {
        id: 'd1',
        environmentId: 'e1',
        pushed: {
          lease,
          leaseMs: 1_000,
          endpointId: 'ep_1',
          url: 'https://h/x',
          eventType: 'message.published',
          eventId: 'm1',
          body: '{}',
          secrets,
          rateLimit: 5,
        },
      },
      { id: 'd2', environmentId: 'e1' },
      ...['d6', 'd7', 'd8', 'd9', 'd1'].map((id) => ({ id, environmentId: 'e1' })),
    ],
  );
  for (const body of [{ deliveries: [['d1', 'e1']] }, 'd1', null, 7]) assert.deepEqual(readNotice(body), []);
});

test('a withdrawal travels as [id, environment, "withdrawn"] and is read back as one; an older reader takes it for a wake-up', () => {
  const deliveries = [...withdrawnEntries([{ id: 'dlv_1', environmentId: 'env_a' }]), { id: 'dlv_2', environmentId: 'env_a' }];
  const notices = pushNotices(deliveries, () => 4);
  assert.deepEqual(notices, [
    {
      partition: 4,
      entries: [
        ['dlv_1', 'env_a', 'withdrawn'],
        ['dlv_2', 'env_a'],
      ],
    },
  ]);
  assert.deepEqual(readNotice(JSON.parse(JSON.stringify(notices[0]!.entries))), [
    { id: 'dlv_1', environmentId: 'env_a', withdrawn: true },
    { id: 'dlv_2', environmentId: 'env_a' },
  ]);
  // any other third field is not a withdrawal: a wake-up, as before
  assert.deepEqual(readNotice([['dlv_3', 'env_a', 'withdrawn?']]), [{ id: 'dlv_3', environmentId: 'env_a' }]);
});

test('rows of the delivery log travel as "log" entries with their position, and read back the same; a large body stays behind', () => {
  const { loggedDeliveries } = webhooks;
  const body = '{"id":"msg_1","data":{ "a" :1}}';
  const logged = loggedDeliveries(
    [
      ['dlv_1', 'env_a', 'ep_1', 'https://hooks.example.com/in', 'msg_1', 'message.published', '12345678901', '2026-12-06 22:00:00.123456+00', secrets, 5],
      ['dlv_2', 'env_a', null, 'https://hooks.example.com/in', 'msg_2', 'message.published', '12345678901', '2026-12-06 22:00:00.123456+00', null, null],
    ],
    (id) => (id === 'msg_1' ? body : 'x'.repeat(129 * 1024)),
  );
  assert.equal(logged.length, 1, "a body over 128 KiB is left to the owner's read of the log");
  const [notice] = pushNotices(logged, () => 7);
  assert.equal(notice!.partition, 7);
  assert.deepEqual(notice!.entries[0]!.slice(0, 5), ['dlv_1', 'env_a', 'log', '12345678901', '2026-12-06 22:00:00.123456+00']);
  const [read] = readNotice(JSON.parse(JSON.stringify(notice!.entries)));
  assert.deepEqual(read, logged[0]);
  assert.deepEqual(read!.pushed!.logged, { tx: '12345678901', createdAt: '2026-12-06 22:00:00.123456+00' });
  assert.equal(read!.pushed!.leaseMs, Infinity, 'no lease to lapse');
  // a malformed log entry is dropped, not taken for a wake-up (there is no ledger row to claim)
  assert.deepEqual(readNotice([['dlv_9', 'env_a', 'log', 'not-a-number', 'x', null, 'u', 't', 'e', 'b', null, null]]), []);
});
