import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CAPABILITY_OPS,
  NO_NAMESPACE,
  capabilitiesProblem,
  capabilityAllows,
  decide,
  decodeCapabilities,
  encodeCapabilities,
  namespacesProblem,
  resolveNamespace,
  effectiveAccess,
  type CapabilityOp,
  type ChannelFacts,
  type Namespace,
} from '@rtm/rules';

const channelChar = fc.constantFrom(...'abcxyz019_.:@=-'.split(''));
const channelId = fc.string({ unit: channelChar, minLength: 1, maxLength: 12 });
const op = fc.constantFrom(...CAPABILITY_OPS);

test('capabilities - encoding keeps every pattern and operation, and the decoded claim grants exactly the union of matching patterns', () => {
  const pattern = fc.oneof(
    channelId,
    channelId.map((id) => `${id}*`),
    fc.constant('*'),
  );
  const capabilities = fc.dictionary(pattern, fc.uniqueArray(op, { minLength: 1, maxLength: 4 }), { maxKeys: 8 });
  fc.assert(
    fc.property(capabilities, channelId, op, (caps, channel, wanted) => {
      assert.equal(capabilitiesProblem(caps), null);
      const claim = decodeCapabilities(JSON.parse(JSON.stringify(encodeCapabilities(caps))));
      const expected = Object.entries(caps).some(([p, ops]) => ops.includes(wanted) && (p.endsWith('*') ? channel.startsWith(p.slice(0, -1)) : channel === p));
      assert.equal(capabilityAllows(claim, channel, wanted), expected);
    }),
  );
});

test('capabilities - no claim grants everything; an empty or malformed claim grants nothing', () => {
  assert.equal(capabilityAllows(undefined, 'room', 'publish'), true);
  assert.equal(capabilityAllows(decodeCapabilities({}), 'room', 'subscribe'), false);
  assert.equal(capabilityAllows(decodeCapabilities('everything'), 'room', 'subscribe'), false);
  assert.equal(capabilityAllows(decodeCapabilities({ room: 99 }), 'room', 'subscribe'), false);
  assert.deepEqual(encodeCapabilities({ 'chat:*': ['subscribe', 'history'], lobby: ['publish'] }), { 'chat:*': 5, lobby: 2 });
});

test('capabilities - the mint refuses too many patterns, too many bytes, unknown operations and bad patterns, naming the fault', () => {
  const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, ['subscribe']]));
  assert.match(capabilitiesProblem(many)!, /at most 64 patterns/);
  const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${'x'.repeat(100)}${i}`, ['subscribe']]));
  assert.match(capabilitiesProblem(big)!, /2048 bytes/);
  assert.match(capabilitiesProblem({ room: ['shout'] })!, /unknown operation "shout"/);
  assert.match(capabilitiesProblem({ room: [] })!, /at least one/);
  assert.match(capabilitiesProblem({ 'ro om': ['publish'] })!, /pattern "ro om"/);
  assert.match(capabilitiesProblem({ 'a*b': ['publish'] })!, /pattern "a\*b"/);
  assert.match(capabilitiesProblem({ '': ['publish'] })!, /must not be empty/);
  assert.equal(capabilitiesProblem({ '*': ['publish'], 'a:*': ['subscribe'] }), null);
});

test('namespaces - the longest matching prefix applies, whatever the order', () => {
  fc.assert(
    fc.property(fc.uniqueArray(channelId, { maxLength: 6 }), channelId, (prefixes, channel) => {
      const namespaces = prefixes.map((prefix, index) => ({ prefix, retentionDays: index + 1 }));
      const resolved = resolveNamespace(fc.sample(fc.shuffledSubarray(namespaces, { minLength: namespaces.length }), 1)[0], channel);
      const matching = prefixes.filter((prefix) => channel.startsWith(prefix)).sort((a, b) => b.length - a.length);
      assert.equal(resolved.prefix, matching[0] ?? null);
      if (matching[0] !== undefined) assert.equal(resolved.retentionDays, prefixes.indexOf(matching[0]) + 1);
      else assert.deepEqual(resolved, NO_NAMESPACE);
    }),
  );
});

test('namespaces - bad prefixes and duplicates are refused; access precedence is channel, namespace, environment', () => {
  assert.match(namespacesProblem([{ prefix: 'a:' }, { prefix: 'a:' }])!, /namespaces.1.prefix: "a:" appears twice/);
  assert.match(namespacesProblem([{ prefix: 'a*' }])!, /namespaces.0.prefix/);
  assert.match(namespacesProblem([{ prefix: '' }])!, /namespaces.0.prefix/);
  assert.equal(namespacesProblem([{ prefix: 'a:' }, { prefix: 'a:b' }]), null);
  const members = resolveNamespace([{ prefix: 'team:', access: 'members' }], 'team:1');
  assert.equal(effectiveAccess(null, members, 'open'), 'members');
  assert.equal(effectiveAccess('open', members, 'members'), 'open');
  assert.equal(effectiveAccess(null, NO_NAMESPACE, 'members'), 'members');
});

test('namespaces - presence: the namespace, else the environment, else tracked without join/leave frames; frames need tracking', () => {
  const pick = (namespaces: Namespace[], defaults?: { presence?: boolean; joinLeave?: boolean }) => {
    const { presence, joinLeave } = resolveNamespace(namespaces, 'room:1', defaults);
    return { presence, joinLeave };
  };
  assert.deepEqual(pick([]), { presence: true, joinLeave: false });
  assert.deepEqual(pick([], { joinLeave: true }), { presence: true, joinLeave: true });
  assert.deepEqual(pick([{ prefix: 'room:', joinLeave: true }]), { presence: true, joinLeave: true });
  assert.deepEqual(pick([{ prefix: 'room:', joinLeave: false }], { joinLeave: true }), { presence: true, joinLeave: false });
  assert.deepEqual(pick([{ prefix: 'room:' }], { presence: false, joinLeave: true }), { presence: false, joinLeave: false });
  assert.deepEqual(pick([{ prefix: 'room:', presence: true }], { presence: false, joinLeave: true }), { presence: true, joinLeave: true });
  assert.deepEqual(pick([{ prefix: 'other:', joinLeave: true }], { joinLeave: false }), { presence: true, joinLeave: false });
});

test('decide - a ban wins over everything, a missing capability over any role, and moderation needs the moderator role', () => {
  const ops = fc.constantFrom('subscribe', 'publish', 'history', 'presence', 'moderate' as const);
  const facts = fc.record<ChannelFacts>({
    channelId,
    anonymous: fc.boolean(),
    capabilities: fc.option(fc.dictionary(channelId, fc.integer({ min: 1, max: 15 }), { maxKeys: 3 }), { nil: undefined }),
    access: fc.constantFrom('open', 'members'),
    namespace: fc.record({
      prefix: fc.constant('n'),
      access: fc.constant(null),
      anonymousSubscribe: fc.boolean(),
      anonymousPublish: fc.boolean(),
      history: fc.boolean(),
      persist: fc.boolean(),
      retentionDays: fc.constant(null),
      maxContentBytes: fc.constant(null),
      presence: fc.boolean(),
      joinLeave: fc.boolean(),
      delta: fc.boolean(),
      presenceWebhooks: fc.boolean(),
    }),
    role: fc.constantFrom(null, 'member', 'moderator', 'readonly'),
    ban: fc.option(fc.record({ reason: fc.constant(null) }), { nil: null }),
  });
  fc.assert(
    fc.property(facts, ops, (f, o) => {
      const decision = decide(f, o);
      if (f.ban) return assert.equal(!decision.ok && decision.code, 'banned');
      const needed: CapabilityOp = o === 'moderate' ? 'publish' : o;
      if (!capabilityAllows(f.capabilities, f.channelId, needed)) return assert.equal(decision.ok, false);
      if (o === 'moderate' && f.role !== 'moderator') assert.equal(decision.ok, false);
      if (o === 'publish' && f.role === 'readonly') assert.equal(decision.ok, false);
      if (f.access === 'members' && f.role === null) assert.equal(decision.ok, false);
      if (decision.ok === false) assert.equal(decision.code, 'forbidden');
    }),
  );
});
