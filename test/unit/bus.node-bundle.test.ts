import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BundleError,
  MAX_BUNDLE_PARTS,
  OwnerDirectory,
  PART_STATUS,
  decodeBundle,
  decodeBundleReply,
  encodeBundle,
  encodeBundleReply,
  isBundle,
  ownerAnnouncement,
} from '@rtm/bus';
import { packBundles } from '../../libs/owner-client/src/owner-batcher.ts';

const bytes = fc.uint8Array({ maxLength: 200 });

test('a bundle and its reply decode to the parts they were made of, in order', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ partition: fc.integer({ min: 0, max: 65_535 }), data: bytes }, { noNullPrototype: true }), { minLength: 1, maxLength: 40 }),
      (parts) => {
        const encoded = encodeBundle(parts);
        assert.ok(isBundle(encoded));
        assert.deepEqual(
          decodeBundle(encoded).map((p) => ({ partition: p.partition, data: Uint8Array.from(p.data) })),
          parts,
        );
        const replies = parts.map((p, i) => ({ status: [PART_STATUS.ANSWERED, PART_STATUS.NOT_DELIVERED, PART_STATUS.TIMED_OUT][i % 3]!, data: p.data }));
        assert.deepEqual(
          decodeBundleReply(encodeBundleReply(replies)).map((r) => ({ status: r.status, data: Uint8Array.from(r.data) })),
          replies,
        );
      },
    ),
    { numRuns: 200 },
  );
});

test('a request that is not a whole bundle is refused, whatever its bytes', () => {
  const good = encodeBundle([
    { partition: 3, data: new TextEncoder().encode('{"op":"publish"}') },
    { partition: 9, data: new Uint8Array([1, 2, 3]) },
  ]);
  // every truncation and one extra byte
  for (let cut = 0; cut < good.length; cut++) assert.throws(() => decodeBundle(good.subarray(0, cut)), BundleError);
  assert.throws(() => decodeBundle(Buffer.concat([good, Buffer.from([0])])), BundleError);
  // a plain JSON command is not a bundle
  assert.equal(isBundle(new TextEncoder().encode('{"op":"publish"}')), false);
  assert.throws(() => decodeBundle(new TextEncoder().encode('[{"op":"publish"}]')), BundleError);
  // zero parts, an unknown reply status
  assert.throws(() => decodeBundle(Buffer.from([0xb1, 0, 0])), BundleError);
  assert.throws(() => decodeBundleReply(Buffer.from([0xb2, 0, 1, 7, 0, 0, 0, 0])), BundleError);
  assert.throws(() => encodeBundle([]), RangeError);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (junk) => {
      try {
        decodeBundle(junk);
      } catch (error) {
        assert.ok(error instanceof BundleError);
      }
    }),
  );
});

test('packBundles: order kept, every unit once, within the byte bound unless alone', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 100 }), fc.integer({ min: 100, max: 10_000 }), (sizes, maxBytes) => {
      const units = sizes.map((size, i) => ({ payload: new Uint8Array(size), i }));
      const bundles = packBundles(units, maxBytes);
      assert.deepEqual(
        bundles.flat().map((u) => u.i),
        units.map((u) => u.i),
      );
      for (const bundle of bundles) {
        assert.ok(bundle.length >= 1 && bundle.length <= MAX_BUNDLE_PARTS);
        if (3 + bundle.reduce((n, u) => n + 6 + u.payload.length, 0) > maxBytes) assert.equal(bundle.length, 1);
      }
    }),
  );
});

test('the owner directory: the latest announcement of each node, for its time to live', () => {
  const directory = new OwnerDirectory();
  directory.apply(ownerAnnouncement('node-a', [0, 1, 2]), 1_000);
  directory.apply(ownerAnnouncement('node-b', [3]), 1_000);
  assert.equal(directory.nodeOf(1, 1_001), 'node-a');
  assert.equal(directory.nodeOf(3, 1_001), 'node-b');
  assert.equal(directory.nodeOf(4, 1_001), undefined);
  // node-b takes partition 1 over; node-a has not said yet that it let it go: the later claim wins
  directory.apply(ownerAnnouncement('node-b', [1, 3]), 2_000);
  assert.equal(directory.nodeOf(1, 2_001), 'node-b');
  directory.apply(ownerAnnouncement('node-a', [0, 2]), 2_100);
  assert.equal(directory.nodeOf(1, 2_101), 'node-b');
  // a partition a node says it does not own, and a node that is gone
  directory.forgetPartition(3);
  assert.equal(directory.nodeOf(3, 2_200), undefined);
  assert.equal(directory.nodeOf(1, 2_200), 'node-b');
  directory.forget('node-b');
  assert.equal(directory.nodeOf(1, 2_200), undefined);
  // an announcement lapses after its ttl
  const ttl = ownerAnnouncement('x', []).ttlMs;
  assert.equal(directory.nodeOf(0, 2_100 + ttl - 1), 'node-a');
  assert.equal(directory.nodeOf(0, 2_100 + ttl), undefined);
});

test('the owner directory ignores what is not an announcement', () => {
  const directory = new OwnerDirectory();
  for (const junk of [
    null,
    1,
    'x',
    [],
    {},
    { node: 'a', partitions: [-1], ttlMs: 10 },
    { node: 'a', partitions: [1.5], ttlMs: 10 },
    { node: '', partitions: [1], ttlMs: 10 },
    { node: 'a', partitions: [1], ttlMs: 0 },
    { node: 'a', partitions: 'x', ttlMs: 10 },
  ]) {
    directory.apply(junk, 0);
  }
  assert.equal(directory.size, 0);
});
