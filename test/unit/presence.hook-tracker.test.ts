import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HookTracker, HookWindow, PresenceRecordIndex, encodeRecord, type HookInterest, type HookTransition, type IndexedRecord } from '@rtm/presence';

const TTL = 15_000;
const T0 = 1_000_000;
const ALL: HookInterest = { channel: true, occupancy: true, entries: true };

const put = (key: string, revision: number, users: Record<string, number>, entries: Record<string, unknown> = {}, time = T0 + revision): IndexedRecord => ({
  key,
  revision,
  operation: 'PUT',
  created: new Date(time),
  value: encodeRecord(new Map(Object.entries(users)), new Map(Object.entries(entries).map(([user, data]) => [user, JSON.stringify(data)]))),
});

/** One gateway: its index and tracker, armed, and what it reported. */
function gateway(self: string, interest: (channel: string) => HookInterest | undefined = () => ALL) {
  const index = new PresenceRecordIndex(TTL);
  const reported: HookTransition[] = [];
  let version = 1;
  const tracker = new HookTracker({ self, ttlMs: TTL, interest, version: () => version, anyWanted: () => true, emit: (list) => reported.push(...list) });
  tracker.arm(index, T0);
  return {
    index,
    tracker,
    reported,
    bump: () => version++,
    apply: (entry: IndexedRecord, now = entry.created.getTime()) => tracker.apply(index, entry, now),
    take: () => reported.splice(0).map((t) => `${t.kind}${t.userId ? `:${t.userId}` : ''}@${t.since.revision}/${t.source}`),
  };
}

/** Every gateway sees every write, in revision order. */
const everywhere = (gateways: ReturnType<typeof gateway>[], entry: IndexedRecord) => gateways.forEach((g) => g.apply(entry));

test('hook tracker: a channel occupied and vacated across two gateways is reported once, by the gateway whose write did it', () => {
  const a = gateway('gw-a');
  const b = gateway('gw-b');
  everywhere([a, b], put('env.ch.gw-a.1', 1, { ann: 1 }));
  everywhere([a, b], put('env.ch.gw-b.2', 2, { bob: 1 })); // a second gateway's first subscriber: already occupied
  assert.deepEqual([a.take(), b.take()], [['occupied@1/own'], []]);
  everywhere([a, b], put('env.ch.gw-a.1', 3, {})); // a's users gone, b's still there
  assert.deepEqual([a.take(), b.take()], [[], []]);
  everywhere([a, b], put('env.ch.gw-b.2', 4, {}));
  assert.deepEqual([a.take(), b.take()], [[], ['vacated@1/own']], 'vacated by b, dated from the occupancy it ends (revision 1)');
  everywhere([a, b], put('env.ch.gw-b.2', 5, { bob: 1 }));
  assert.deepEqual([a.take(), b.take()], [[], ['occupied@5/own']], 'a new occupancy, a new since');
});

test('hook tracker: entries enter once and leave when the last one goes, with the data they had', () => {
  const a = gateway('gw-a');
  const b = gateway('gw-b');
  everywhere([a, b], put('env.ch.gw-a.1', 1, { ann: 1 }, { ann: { v: 1 } }));
  everywhere([a, b], put('env.ch.gw-b.1', 2, { ann: 1 }, { ann: { v: 2 } })); // a second tab on b: an update, not an enter
  assert.deepEqual([a.take(), b.take()], [['occupied@1/own', 'entered:ann@1/own'], ['updated:ann@1/own']]);
  everywhere([a, b], put('env.ch.gw-a.1', 3, { ann: 1 })); // left on a (still subscribed there): b's entry still there
  assert.deepEqual([a.take(), b.take()], [[], []]);
  everywhere([a, b], put('env.ch.gw-b.1', 4, {}));
  const left = b.reported.find((t) => t.kind === 'left')!;
  assert.deepEqual([a.take(), b.take()], [[], ['left:ann@1/own']], 'left (dated from the enter on a), still occupied by a');
  assert.equal(left.data, JSON.stringify({ v: 2 }), 'the data it had last');
});

test('hook tracker: records that age out are reported by every gateway alike; the first values of a watcher are no transitions', () => {
  const a = gateway('gw-a');
  const b = gateway('gw-b');
  // two dead gateways hold ann (entered on both) and bob
  everywhere([a, b], put('env.ch.gw-dead.1', 1, { ann: 1 }, { ann: 'hi' }));
  everywhere([a, b], put('env.ch.gw-dead2.1', 2, { ann: 1, bob: 1 }, { ann: 'hi' }, T0 + 5_000));
  assert.deepEqual([a.take(), b.take()], [[], []], "the dead gateways' own writes: reported by nobody alive");
  a.tracker.sweep(a.index, T0 + 1 + TTL - 1);
  assert.deepEqual(a.take(), [], 'not aged out yet');
  a.tracker.sweep(a.index, T0 + 1 + TTL + 1); // the first record only: ann's entry is still in the other
  assert.deepEqual(a.reported, []);
  a.tracker.sweep(a.index, T0 + 5_000 + TTL + 1);
  b.tracker.sweep(b.index, T0 + 5_000 + TTL + 800); // b's clock and sweeps differ (both records at once); its decision does not
  const keys = (g: ReturnType<typeof gateway>) => {
    const window = new HookWindow();
    g.reported.forEach((t) => window.add(t));
    return window.drain().map((e) => `${e.key} ${e.time}`);
  };
  assert.deepEqual(keys(a), keys(b), 'the same events, so the same ids');
  assert.deepEqual(a.take(), ['vacated@1/expiry', 'left:ann@1/expiry']);

  // a watcher's first values are not transitions (not armed), nor is the arming of an untracked channel
  const fresh = new PresenceRecordIndex(TTL);
  const seen: HookTransition[] = [];
  const tracker = new HookTracker({
    self: 'gw-c',
    ttlMs: TTL,
    interest: () => ALL,
    version: () => 1,
    anyWanted: () => true,
    emit: (list) => seen.push(...list),
  });
  tracker.apply(fresh, put('env.ch.gw-c.1', 7, { cid: 1 }, { cid: 1 }));
  tracker.arm(fresh, T0 + 7);
  assert.deepEqual(seen, []);
});

test('hook tracker: after the watcher is reopened, what went missing is given a TTL to come back before it is reported gone', () => {
  const a = gateway('gw-a');
  a.apply(put('env.ch.gw-a.1', 1, { ann: 1 }, { ann: 1 }));
  a.apply(put('env.other.gw-a.1', 2, { ann: 1 }));
  a.take();
  // NATS lost the bucket: a new index, empty; revisions start again
  const index = new PresenceRecordIndex(TTL);
  a.tracker.disarm();
  a.tracker.arm(index, T0 + 100);
  a.tracker.sweep(index, T0 + 100 + TTL - 1);
  assert.deepEqual(a.take(), [], 'within the TTL nothing is reported gone');
  a.tracker.apply(index, put('env.ch.gw-a.1', 1, { ann: 1 }, { ann: 1 }, T0 + 200), T0 + 200); // rewritten by a refresh
  a.tracker.sweep(index, T0 + 100 + TTL);
  assert.deepEqual(a.take(), ['vacated@2/expiry'], 'the channel that came back is still the same occupancy; the other is gone');
});

test('hook tracker: a gateway that saw a record age out reports the next writes of that channel too (clocks disagree on the moment)', () => {
  const h = gateway('gw-h');
  h.apply(put('env.ch.gw-dead.1', 1, { ann: 1 }));
  h.tracker.sweep(h.index, T0 + 1 + TTL + 1);
  assert.deepEqual(h.take(), ['vacated@1/expiry']);
  // gw-g's subscriber arrives: for g (whose clock had not aged the record out yet) no transition; h reports it
  const expiredAt = T0 + 1 + TTL + 1;
  h.apply(put('env.ch.gw-g.1', 2, { bob: 1 }, {}, expiredAt + 1_000));
  assert.deepEqual(h.take(), ['occupied@2/write']);
  h.apply(put('env.ch.gw-g.1', 3, {}, {}, expiredAt + TTL + 500));
  assert.deepEqual(h.take(), [], "a TTL later, another gateway's writes are its own to report again");
});

test('hook tracker: only wanted channels are tracked, from what the index holds when they become wanted', () => {
  let wanted = false;
  const a = gateway('gw-a', (channel) => (wanted && channel === 'env.ch' ? ALL : undefined));
  a.apply(put('env.ch.gw-a.1', 1, { ann: 1 }, { ann: 1 }));
  assert.deepEqual([a.take(), a.tracker.size], [[], 0]);
  wanted = true;
  a.bump();
  a.apply(put('env.ch.gw-a.1', 2, { ann: 1, bob: 1 }, { ann: 1 })); // a refresh: the channel was occupied already
  assert.deepEqual([a.take(), a.tracker.size], [[], 1]);
  a.apply(put('env.ch.gw-a.1', 3, {}));
  assert.deepEqual(a.take(), ['vacated@1/own', 'left:ann@1/own'], "dated from the record's first write and the entry's");
  a.apply(put('env.quiet.gw-a.1', 4, { cid: 1 }));
  assert.deepEqual(a.take(), [], 'another channel is not wanted');
  const entriesOff = gateway('gw-a', () => ({ channel: true, occupancy: false, entries: false }));
  entriesOff.apply(put('env.ch.gw-a.1', 1, { ann: 1 }, { ann: 1 }));
  assert.deepEqual(entriesOff.take(), ['occupied@1/own'], "no entries where they are not wanted (the namespace's presenceWebhooks)");
});

test('hook tracker: occupancy counts go once per change, from the gateway of lowest id holding the channel', () => {
  const a = gateway('gw-a');
  const b = gateway('gw-b');
  everywhere([a, b], put('env.ch.gw-b.1', 1, { ann: 2 }));
  assert.deepEqual(
    [a.tracker.occupancyRound(a.index, T0 + 2), b.tracker.occupancyRound(b.index, T0 + 2)],
    [[], [{ channel: 'env.ch', connections: 2, users: 1 }]],
  );
  assert.deepEqual(b.tracker.occupancyRound(b.index, T0 + 3), [], 'unchanged: nothing');
  everywhere([a, b], put('env.ch.gw-a.1', 2, { bob: 1 }));
  assert.deepEqual(
    [a.tracker.occupancyRound(a.index, T0 + 4), b.tracker.occupancyRound(b.index, T0 + 4)],
    [[{ channel: 'env.ch', connections: 3, users: 2 }], []],
  );
  everywhere([a, b], put('env.ch.gw-a.1', 3, {}));
  everywhere([a, b], put('env.ch.gw-b.1', 4, {}));
  assert.deepEqual(b.tracker.occupancyRound(b.index, T0 + 5), [], 'vacated: no counts (channel.vacated says it)');
});
