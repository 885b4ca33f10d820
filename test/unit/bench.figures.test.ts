/**
 * The pure parts of the benchmarks' figures: the heap census by kind and its difference per
 * socket (connect-memory), the CPU and heap profile summaries (connect), and the large channel's
 * check that every subscriber got every message once, in order; the replication benchmark's
 * windows of one mode added together; the reactions benchmark's alone and storm windows. A mistake here would report a wrong figure rather than fail,
 * so each is checked on a small input worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { census, difference, type Snapshot } from '../bench/lib/heap-census.ts';
import { summarise, summariseHeap } from '../bench/lib/v8-profiles.ts';
import { orderViolations } from '../bench/lib/large-channel-fanout.ts';
import { combine, type Case } from '../bench/lib/replication-cases.ts';
import type { Pauses } from '../bench/process-pauses.ts';
import * as hdr from 'hdr-histogram-js';
import { combine as combineReactions, type Window } from '../bench/lib/reaction-report.ts';
import type { PhaseFigures } from '../bench/lib/reaction-load.ts';
import { histogram } from '../bench/lib/figures.ts';

/** A root, an object `Session` (100 B) holding a string (20 B) by a property, and `extra` more sessions. */
function snapshot(extra: number): Snapshot {
  const types = ['hidden', 'object', 'closure', 'string', 'synthetic'];
  // nodes in order: the root, then each session followed by its string;
  // a node is (type, name, id, self_size, edge_count), an edge (type, name_or_index, to_node's offset)
  const nodes: number[] = [4, 0, 1, 0, extra + 1];
  const rootEdges: number[] = [];
  const sessionEdges: number[] = [];
  for (let i = 0; i <= extra; i++) {
    const session = 1 + 2 * i;
    nodes.push(1, 1, 100 + i, 100, 1, 3, 2, 200 + i, 20, 0);
    rootEdges.push(1, 3, session * 5);
    sessionEdges.push(1, 3, (session + 1) * 5);
  }
  return {
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
        node_types: [types],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [['element', 'property', 'weak', 'hidden', 'shortcut']],
      },
    },
    nodes,
    // edges in the order of the nodes that hold them
    edges: [...rootEdges, ...sessionEdges],
    strings: ['', 'Session', 'text', 'field'],
  };
}

test('bench heap census: objects by constructor, their strings under their owner, and the difference per socket', () => {
  const before = census(snapshot(0), new Map());
  assert.deepEqual(before.get('object Session'), { bytes: 100, count: 1 });
  assert.deepEqual(before.get('string ← object Session'), { bytes: 20, count: 1 });
  const after = census(snapshot(2), new Map());
  assert.deepEqual(after.get('object Session'), { bytes: 300, count: 3 });
  const text = difference(before, after, 2, 10);
  assert.match(text, /^heap snapshot difference per socket: 120 B\n/);
  assert.match(text, /100 B\s+1\.00 ×\s+object Session/);
  assert.match(text, /20 B\s+1\.00 ×\s+string ← object Session/);
  assert.equal(difference(before, after, 2, 1).trim().split('\n').length, 2, 'only the top row');
});

test('bench profiles: a CPU profile summarised by self time per frame and per file; a heap profile by allocation site', () => {
  const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', '', 0) },
      { id: 2, callFrame: frame('send', 'file:///x/node_modules/ws/lib/sender.js', 9), hitCount: 3 },
      { id: 3, callFrame: frame('', 'file:///x/node_modules/ws/lib/sender.js', 19), hitCount: 1 },
    ],
    samples: [2, 2, 2, 3],
  };
  const text = summarise(profile, 'p.cpuprofile');
  assert.match(text, /cpu profile p\.cpuprofile \(4 samples\)/);
  assert.match(text, /75\.0 %\s+send ws\/lib\/sender\.js:10/);
  assert.match(text, /25\.0 %\s+\(anonymous\) ws\/lib\/sender\.js:20/);
  assert.match(text, /100\.0 %\s+ws\/lib\/sender\.js/);

  const heap = {
    callFrame: frame('(root)', '', 0),
    selfSize: 0,
    children: [{ callFrame: frame('open', 'file:///x/node_modules/ws/lib/a.js', 0), selfSize: 4096, children: [] }],
  };
  const heapText = summariseHeap(heap);
  assert.match(heapText, /4,096 B sampled in all/);
  assert.match(heapText, /4,096 B\s+open ws\/lib\/a\.js:1 ← \(root\)/);
});

test('bench large channel: every subscribed subscriber holds every published seq once, in order; others are not counted', () => {
  const published = [3, 1, 2];
  assert.deepEqual(orderViolations([{ state: 'subscribed', seqs: [1, 2, 3] }], published), {
    missing: 0,
    duplicates: 0,
    outOfOrder: 0,
    subscribersAffected: 0,
  });
  const violations = orderViolations(
    [
      { state: 'subscribed', seqs: [1, 3] }, // 2 missing
      { state: 'subscribed', seqs: [1, 2, 2, 3] }, // 2 twice (and so not after 2)
      { state: 'subscribed', seqs: [2, 1, 3, 99] }, // 1 after 2; 99 was not published
      { state: 'failed', seqs: [] },
    ],
    published,
  );
  assert.deepEqual(violations, { missing: 1, duplicates: 1, outOfOrder: 2, subscribersAffected: 3 });
});

test("bench replication: a mode's windows added together, per message and weighted by count", () => {
  const pauses = (commits: number, meanMessages: number, meanMs: number): Pauses => ({
    gc: {},
    loopDelayP99Ms: 0,
    loopDelayMaxMs: 0,
    commits: { count: commits, meanMessages, meanMs, p99AtMostMs: 10 },
    transactions: { count: commits / 2, meanCommands: meanMessages * 2, meanMs, p99AtMostMs: 10, laneWaitMeanMs: 1, laneWaitP99AtMostMs: 5 },
  });
  const result = (ok: number, p50: number, p99: number) => ({ name: 'x', ok, errors: 0, perSecond: 0, p50, p99 });
  const cases: Case[] = [
    {
      mode: 'sync',
      clients: 50,
      result: result(1_000, 10, 20),
      window: { seconds: 1, cpu: { gateway: 0.1 }, walBytes: 600_000, node: pauses(100, 10, 2), gateway: pauses(0, 0, 0) },
    },
    {
      mode: 'sync',
      clients: 50,
      result: result(3_000, 20, 40),
      window: { seconds: 2, cpu: { gateway: 0.2 }, walBytes: 1_800_000, node: pauses(300, 10, 4), gateway: pauses(0, 0, 0) },
    },
    {
      mode: 'async',
      clients: 50,
      result: result(9_999, 1, 1),
      window: { seconds: 1, cpu: { gateway: 9 }, walBytes: 1, node: pauses(1, 1, 1), gateway: pauses(0, 0, 0) },
    },
  ];
  const row = combine(cases, 'sync', 50)!;
  assert.equal(row.windows, 2);
  assert.equal(row.messages, 4_000);
  assert.equal(row.perSecond, 4_000 / 3);
  assert.deepEqual([row.p50, row.p99], [15, 30]);
  assert.equal(Math.round(row.cpuPerMessage.gateway! * 10) / 10, 75, '0.3 s of CPU over 4,000 messages');
  assert.equal(row.walPerMessage, 600);
  assert.equal(row.commitsPerSecond, 400 / 3);
  assert.equal(row.commitMs, 3.5, "weighted by each window's commits");
  assert.equal(combine(cases, 'alone', 50), undefined);
});

test('bench reactions: alone and storm windows added together; CPU per publish alone, per reaction beyond the alone rate', () => {
  // a phase whose requests all took `ms` (µs in the histogram), `ok` of them
  const phase = (ok: number, ms: number): PhaseFigures => {
    const h = histogram(3_600_000_000);
    h.recordValueWithCount(ms * 1000, ok);
    return {
      sent: ok,
      ok,
      failed: [],
      samples: [],
      latency: hdr.encodeIntoCompressedBase64(h),
      latenessP99: 0,
      latenessMax: 0,
      loopDelayP99Ms: 0,
      mostInFlight: 1,
      connections: 1,
      elapsedMs: 10_000,
    };
  };
  const frames = (summaries: number) => ({ messages: 0, summaries, other: 0, lastSummaryTotal: 0 });
  const window = (name: string, publish: PhaseFigures, cpu: Record<string, number>, storm?: PhaseFigures): Window => ({
    name,
    publish,
    ...(storm && { storm }),
    frames: frames(storm ? 30 : 0),
    cpu,
    machineBusy: 0,
    seconds: 10,
    ownerCommands: 0,
    pauses: [],
  });
  const c = combineReactions([
    window('alone 1', phase(2_000, 4), { gateway: 1, 'channel-node': 2 }),
    window('storm 1', phase(2_000, 40), { gateway: 3, 'channel-node': 1.5 }, phase(10_000, 250)),
    window('alone 2', phase(1_000, 10), { gateway: 1, 'channel-node': 2 }),
  ]);
  // alone: 2,000 at 4 ms and 1,000 at 10 ms: the median is 4, the 99th percentile 10
  assert.equal(Math.round(c.alone.p50), 4);
  assert.equal(Math.round(c.alone.p99), 10);
  assert.deepEqual([Math.round(c.storm.p50), Math.round(c.storm.p99)], [40, 40], 'the storm windows alone');
  assert.equal(c.alone.publishes, 3_000);
  assert.equal(c.storm.reactions, 10_000);
  assert.equal(Math.round(c.storm.reactionP99), 250);
  assert.equal(c.storm.summaries, 30);
  assert.deepEqual(c.perPublish, [
    ['gateway', (2 / 3_000) * 1e6],
    ['channel-node', (4 / 3_000) * 1e6],
  ]);
  // the alone rate is 0.1 s/s of gateway and 0.2 s/s of channel-node: 10 s of storm spent 2 s and −0.5 s beyond it
  assert.deepEqual(
    c.perReaction.map(([group, micros]) => [group, Math.round(micros)]),
    [
      ['gateway', 200],
      ['channel-node', -50],
    ],
  );
});
