import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK_MEMBERS_MAX, HookWindow, type HookTransition } from '@rtm/presence';
import { PRESENCE_EVENT_MEMBERS_MAX } from '@rtm/schemas';
import { derivedId } from '@rtm/db';

const t = (kind: HookTransition['kind'], revision: number, extra: Partial<HookTransition> = {}): HookTransition => ({
  kind,
  channel: 'env.ch',
  since: { revision, time: 1_000 + revision },
  time: 2_000 + revision,
  source: 'own',
  group: `w${revision}`,
  ...extra,
});
const drained = (...transitions: HookTransition[]) => {
  const window = new HookWindow();
  transitions.forEach((transition) => window.add(transition));
  return window.drain();
};
const types = (...transitions: HookTransition[]) => drained(...transitions).map((e) => e.type);

test('hook window: a channel that flaps within one window sends its net change only', () => {
  assert.deepEqual(types(t('occupied', 1)), ['channel.occupied']);
  assert.deepEqual(types(t('occupied', 1), t('vacated', 2)), [], 'occupied then vacated: nothing');
  assert.deepEqual(types(t('vacated', 1), t('occupied', 2)), [], 'vacated then occupied again: nothing');
  assert.deepEqual(types(t('occupied', 1), t('vacated', 2), t('occupied', 3)), ['channel.occupied']);
  const [event] = drained(t('vacated', 1), t('occupied', 2), t('vacated', 3));
  assert.equal(event!.type, 'channel.vacated');
  assert.equal(event!.key, 'channel.vacated|env.ch|3.1003', 'the last transition, dated from the occupancy it ends');
  assert.equal(event!.time, 2_003);
  // another channel's in the same window are its own
  assert.deepEqual(types(t('occupied', 1), t('vacated', 2, { channel: 'env.other' })).sort(), ['channel.occupied', 'channel.vacated']);
});

test('hook window: members are netted per user, batched per channel, sorted and capped per event', () => {
  const enter = (userId: string, revision: number, data = '1') => t('entered', revision, { userId, data });
  const leave = (userId: string, revision: number, data = '1') => t('left', revision, { userId, data });
  assert.deepEqual(drained(enter('bob', 1), leave('bob', 2), leave('ann', 3), enter('ann', 4)), [], 'in and out, out and in: nothing');
  const [entered, left] = drained(enter('cid', 1, '"a"'), enter('bob', 2), leave('dan', 3, '{"x":1}'), leave('bob', 4), enter('bob', 5, '"new"'));
  assert.equal(entered!.type, 'presence.entered');
  assert.deepEqual(entered!.members, [
    { userId: 'bob', data: '"new"' },
    { userId: 'cid', data: '"a"' },
  ]);
  assert.deepEqual([left!.type, left!.members], ['presence.left', [{ userId: 'dan', data: '{"x":1}' }]]);
  const update = (userId: string, data: string) => t('updated', 0, { userId, data });
  assert.deepEqual(
    drained(enter('eve', 1, '"first"'), update('eve', '"second"'))[0]!.members,
    [{ userId: 'eve', data: '"second"' }],
    'an enter then an update: the newer data',
  );
  assert.deepEqual(drained(update('eve', '"second"')), [], 'an update alone is no event');

  assert.equal(HOOK_MEMBERS_MAX, PRESENCE_EVENT_MEMBERS_MAX, 'the catalogue says the same cap');
  const many = Array.from({ length: 2 * HOOK_MEMBERS_MAX + 7 }, (_, i) => enter(`u${String(i).padStart(3, '0')}`, i + 1));
  const events = drained(...many.reverse());
  assert.deepEqual(
    events.map((e) => e.members!.length),
    [HOOK_MEMBERS_MAX, HOOK_MEMBERS_MAX, 7],
  );
  assert.equal(events[0]!.members![0]!.userId, 'u000', 'sorted by user id');
  assert.equal(new Set(events.map((e) => e.key)).size, 3, 'each its own id');
  assert.deepEqual(
    drained(...many).map((e) => e.key),
    events.map((e) => e.key),
    'the same members make the same keys, in any order',
  );
});

test('hook window: transitions several gateways report are kept as their group made them, so each gateway makes the same events', () => {
  const expiry = (kind: HookTransition['kind'], revision: number, userId?: string) =>
    t(kind, revision, { source: 'expiry', group: 'xgw-dead.1@9.5000', ...(userId && { userId, data: 'null' }) });
  const one = drained(t('entered', 7, { userId: 'own', data: '1' }), expiry('vacated', 1), expiry('left', 2, 'ann'), expiry('left', 3, 'bob'));
  const other = drained(expiry('left', 3, 'bob'), expiry('vacated', 1), expiry('left', 2, 'ann'));
  const keys = (events: typeof one) =>
    events
      .filter((e) => !e.key.includes('own@'))
      .map((e) => e.key)
      .sort();
  assert.deepEqual(keys(one), keys(other), "the gateway's own entered is not mixed into the group");
  assert.equal(one.length, 3);
  // an occupied then vacated of another source is not netted: another gateway reports them as they are
  assert.deepEqual(types(t('occupied', 1, { source: 'write' }), t('vacated', 1, { source: 'write' })), ['channel.occupied', 'channel.vacated']);
});

test("derivedId: the same thing named at the same time makes the same id, of newId's layout and order", () => {
  const a = derivedId('evt', 1_767_225_600_000, 'env|channel.occupied|env.ch|1.2');
  assert.match(a, /^evt_[0-9a-z]{26}$/);
  assert.equal(derivedId('evt', 1_767_225_600_000, 'env|channel.occupied|env.ch|1.2'), a);
  assert.notEqual(derivedId('evt', 1_767_225_600_000, 'env|channel.vacated|env.ch|1.2'), a);
  assert.ok(derivedId('evt', 1_767_225_600_001, 'zzz') > a, 'time-ordered');
});
