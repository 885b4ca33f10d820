/**
 * A channel feed's live frames (libs/edge/src/channels/channel-feed.ts), driven through
 * FeedRegistry with a fake NATS subscription and a fake store (no processes): persisted message
 * frames reach members in seq order with no gap and no duplicate. A frame at or below the last
 * delivered seq is dropped; a frame past a gap is held until the missing seqs are read from
 * Postgres (exactly the range (last, seq)) and delivered first; other frames (ephemeral, op) are
 * relayed once each, in arrival order. A gap too large to repair (> 1000) or a failed read makes
 * the members resync, and the feed goes on from the frame that revealed the gap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { subjects } from '@rtm/bus';
import { FeedRegistry, type FeedDeps, type FeedMember, type Frame } from '../../libs/edge/src/channels/channel-feed.ts';
import { envelopeOfRow, envelopeTextOfRow, type MessageRow } from '@rtm/channels';

const row = (seq: number, to: string[] | null = null): MessageRow => ({
  id: `msg_${seq}`,
  seq,
  type: 'message',
  kind: 'server',
  content: JSON.stringify({ n: seq }),
  sender_id: 'server',
  sender_anon: false,
  to,
  mentions: null,
  ts: 1_000 + seq,
  retracted: false,
  version: 1,
  updated_at: null,
  updated_by: null,
  reactions: null,
});

interface Member extends FeedMember {
  frames: Frame[];
  skipped: number[];
  resyncs: number;
}

const member = (userId = 'u1'): Member => {
  const m: Member = {
    userId,
    frames: [],
    skipped: [],
    resyncs: 0,
    deliver: (_text, frame) => void m.frames.push(frame),
    skip: (seq) => void m.skipped.push(seq),
    resync: () => void m.resyncs++,
  };
  return m;
};

/** A feed of channel `room` whose store holds `rows` and last_seq `lastSeq`. */
async function feedOf(
  rows: MessageRow[],
  lastSeq: number,
  options: { failReads?: boolean; members?: Member[]; changes?: { position: number; text: string }[] } = {},
) {
  let callback: ((error: Error | null, msg: { data: Uint8Array }) => void) | undefined;
  const reads: { channel: string; after: number | undefined; before: number | undefined; limit: number; viewer: unknown }[] = [];
  const warnings: unknown[] = [];
  const deps: FeedDeps = {
    nc: {
      subscribe: (_subject, opts) => {
        callback = opts.callback;
        return { unsubscribe() {} };
      },
      flush: async () => {},
    },
    subjects: subjects('rtm'),
    lastSeq: async () => lastSeq,
    read: async (environmentId, channelId, range) => {
      reads.push({ channel: `${environmentId}/${channelId}`, after: range.after, before: range.before, limit: range.limit, viewer: range.viewer });
      if (options.failReads) throw new Error('database down');
      const { after = 0, before = Number.MAX_SAFE_INTEGER } = range;
      return rows
        .filter((r) => r.seq > after && r.seq < before)
        .slice(0, range.limit)
        .map((r) => ({ seq: r.seq, text: envelopeTextOfRow(r) }));
    },
    readChanges: async (_environmentId, _channelId, range) => {
      if (options.failReads) throw new Error('database down');
      return (options.changes ?? []).filter((c) => c.position > range.after && c.position < range.before);
    },
    log: { warn: (...args: unknown[]) => warnings.push(args) },
  };
  const registry = new FeedRegistry(deps);
  const members = options.members ?? [member()];
  for (const m of members) await registry.join('env_a', 'room', m);
  const encoder = new TextEncoder();
  return {
    members,
    reads,
    warnings,
    publish: (frame: object) => callback!(null, { data: encoder.encode(JSON.stringify(frame)) }),
    /** Lets the feed's pump (and any repair read) run to completion. */
    settle: async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const seqsOf = (frames: Frame[]) => frames.filter((f) => f.op === undefined && f.ephemeral === false).map((f) => f.seq);

type Arrival = { kind: 'seq'; seq: number } | { kind: 'ephemeral'; n: number } | { kind: 'op'; n: number };

test('feed gap repair - for any arrival order, duplicates and gaps: each seq once, in order, other frames in arrival order', async () => {
  const scenario = fc.record({ total: fc.integer({ min: 0, max: 40 }), start: fc.nat({ max: 40 }) }).chain(({ total, start }) =>
    fc.record({
      total: fc.constant(total),
      lastSeq: fc.constant(Math.min(start, total)),
      arrivals: fc.array(
        fc.oneof(
          {
            weight: 4,
            arbitrary:
              total === 0 ? fc.constant<Arrival>({ kind: 'op', n: 0 }) : fc.integer({ min: 1, max: total }).map((seq): Arrival => ({ kind: 'seq', seq })),
          },
          { weight: 1, arbitrary: fc.nat().map((n): Arrival => ({ kind: 'ephemeral', n })) },
          { weight: 1, arbitrary: fc.nat().map((n): Arrival => ({ kind: 'op', n })) },
        ),
        { maxLength: 60 },
      ),
    }),
  );
  await fc.assert(
    fc.asyncProperty(scenario, async ({ total, lastSeq, arrivals }) => {
      const rows = Array.from({ length: total }, (_, i) => row(i + 1));
      const feed = await feedOf(rows, lastSeq);
      const sent: Frame[] = [];
      for (const a of arrivals) {
        const frame: Frame =
          a.kind === 'seq'
            ? { ...envelopeOfRow(rows[a.seq - 1]!) }
            : a.kind === 'ephemeral'
              ? { id: `eph_${a.n}`, ephemeral: true, seq: 0 }
              : { op: 'retract', id: `op_${a.n}` };
        sent.push(frame);
        feed.publish(frame);
      }
      await feed.settle();
      const [m] = feed.members;
      const highest = Math.max(lastSeq, ...arrivals.map((a) => (a.kind === 'seq' ? a.seq : 0)));
      const expected = Array.from({ length: highest - lastSeq }, (_, i) => lastSeq + 1 + i);
      assert.deepEqual(seqsOf(m!.frames), expected, 'every seq after last_seq up to the highest seen, once, in order');
      for (const f of m!.frames) if (typeof f.seq === 'number' && f.seq > 0) assert.deepEqual(f, envelopeOfRow(rows[f.seq - 1]!));
      // frames without a seq: each once, in arrival order, and never ahead of a seq that arrived before them
      const unsequenced = (frames: Frame[]) => frames.filter((f) => !(f.op === undefined && f.ephemeral === false)).map((f) => f.id);
      assert.deepEqual(unsequenced(m!.frames), unsequenced(sent));
      let delivered = lastSeq;
      for (const [i, f] of m!.frames.entries()) {
        if (f.op === undefined && f.ephemeral === false) delivered = f.seq!;
        else {
          const arrivedAt = sent.findIndex((s) => s.id === f.id);
          const highestBefore = Math.max(lastSeq, ...sent.slice(0, arrivedAt).map((s) => (s.op === undefined && s.ephemeral === false ? s.seq! : 0)));
          assert.ok(delivered >= highestBefore, `frame ${i} (${String(f.id)}) overtook seq ${highestBefore}`);
        }
      }
      // reads: only for gaps, exactly the missing range of this channel, no viewer (the feed serves every member)
      for (const r of feed.reads) {
        assert.equal(r.channel, 'env_a/room');
        assert.ok(r.after !== undefined && r.before !== undefined, 'a read of a bounded range');
        assert.ok(r.before - r.after > 1, 'a read only for a real gap');
        assert.equal(r.limit, r.before - r.after - 1);
        assert.equal(r.viewer, undefined);
      }
      assert.equal(m!.resyncs, 0);
    }),
    { numRuns: 200 },
  );
});

test('feed gap repair - a gap over 1000 seqs is not read: members resync and the feed goes on from that frame', async () => {
  const feed = await feedOf([], 5, { members: [member('u1'), member('u2')] });
  feed.publish(envelopeOfRow(row(1007)));
  feed.publish(envelopeOfRow(row(1008)));
  await feed.settle();
  assert.deepEqual(feed.reads, []);
  for (const m of feed.members) {
    assert.equal(m.resyncs, 1);
    assert.deepEqual(seqsOf(m.frames), [1007, 1008]);
  }
  assert.equal(feed.warnings.length, 1);
  // exactly 1000 missing is still repaired
  const rows = Array.from({ length: 1002 }, (_, i) => row(i + 1));
  const edge = await feedOf(rows, 1);
  edge.publish(envelopeOfRow(rows[1001]!));
  await edge.settle();
  assert.equal(edge.members[0]!.resyncs, 0);
  assert.equal(seqsOf(edge.members[0]!.frames).length, 1001);
});

test('feed gap repair - a failed read makes members resync; the revealing frame is still delivered', async () => {
  const rows = [row(1), row(2), row(3)];
  const feed = await feedOf(rows, 0, { failReads: true });
  feed.publish(envelopeOfRow(rows[2]!));
  await feed.settle();
  assert.equal(feed.members[0]!.resyncs, 1);
  assert.deepEqual(seqsOf(feed.members[0]!.frames), [3]);
  assert.deepEqual(
    feed.reads.map((r) => [r.after, r.before, r.limit]),
    [[0, 3, 2]],
  );
});

test('feed gap repair - a repaired message addressed to others reaches them, and is a skip for the rest', async () => {
  const rows = [row(1, ['u2']), row(2)];
  const feed = await feedOf(rows, 0, { members: [member('u1'), member('u2')] });
  feed.publish(envelopeOfRow(rows[1]!));
  await feed.settle();
  const [u1, u2] = feed.members;
  assert.deepEqual(seqsOf(u1!.frames), [2]);
  assert.deepEqual(u1!.skipped, [1]);
  assert.deepEqual(seqsOf(u2!.frames), [1, 2]);
  assert.deepEqual(u2!.skipped, []);
});

test('feed gap repair - a gap over changes: each change as its message is now, a skip where a change was superseded', async () => {
  const rows = [row(1), row(2), row(3, ['bob'])];
  // position 4: an edit of 2 (the store shows 2 as it is now); 5: superseded (nothing); 6: the frame that arrives
  const changes = [
    { position: 4, text: `{"op":"update","eventSeq":4,${envelopeTextOfRow({ ...rows[1]!, version: 2, updated_at: 9, updated_by: 'u1' }).slice(1)}` },
  ];
  const alice = member('alice');
  const bob = member('bob');
  const feed = await feedOf(rows, 1, { changes, members: [alice, bob] });
  feed.publish({ op: 'summary', eventSeq: 6, id: 'msg_2', seq: 2, reactions: { ok: { count: 1, users: ['u1'], clipped: false } } });
  await feed.settle();
  for (const m of [alice, bob]) {
    const shown = m.frames.map((f) => `${f.op ?? 'message'}@${f.op === undefined ? f.seq : f.eventSeq}`);
    const expected = m === bob ? ['message@2', 'message@3', 'update@4', 'summary@6'] : ['message@2', 'update@4', 'summary@6'];
    assert.deepEqual(shown, expected, m.userId);
    assert.deepEqual(m.skipped, m === bob ? [5] : [3, 5], `${m.userId}: the addressed message and the superseded change are skips`);
  }
  assert.equal(alice.frames.find((f) => f.op === 'update')!.version, 2);
  // a change arriving after the repair, at the next position, goes straight through; one at or below is dropped
  feed.publish({ op: 'retract', id: 'msg_1', seq: 1, eventSeq: 6 });
  feed.publish({ op: 'retract', id: 'msg_1', seq: 1, eventSeq: 7 });
  await feed.settle();
  assert.deepEqual(
    alice.frames.slice(3).map((f) => f.eventSeq),
    [7],
  );
});
