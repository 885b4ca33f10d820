import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressGroup, believedProxy } from '../../apps/gateway/src/http/connection-limit.ts';

test('connection limit - an IPv6 address counts by its /64 however it is written; IPv4 (mapped or not) by itself', () => {
  const group = '2001:db8:7:9::/64';
  for (const address of ['2001:db8:7:9::1', '2001:0db8:0007:0009:0000:0000:0000:0001', '2001:DB8:7:9:ffff:ffff:ffff:ffff', '2001:db8:7:9::1%eth0', '2001:db8:7:9::10.0.0.1']) {
    assert.equal(addressGroup(address), group, address);
  }
  assert.notEqual(addressGroup('2001:db8:7:a::1'), group);
  assert.equal(addressGroup('::1'), '0:0:0:0::/64');
  assert.equal(addressGroup('fe80::1'), 'fe80:0:0:0::/64');
  assert.equal(addressGroup('2001:db8::'), '2001:db8:0:0::/64');
  assert.equal(addressGroup('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(addressGroup('203.0.113.7'), '203.0.113.7');
  assert.notEqual(addressGroup('203.0.113.7'), addressGroup('203.0.113.8'));
});

test('connection limit - the peers TRUST_PROXY believes: none when off, every one for true or a hop count, the listed ones for a list', () => {
  assert.equal(believedProxy(false)('10.0.0.2'), false);
  assert.equal(believedProxy(0)('10.0.0.2'), false);
  assert.equal(believedProxy(true)('198.51.100.1'), true);
  assert.equal(believedProxy(2)('198.51.100.1'), true);
  const listed = believedProxy(['10.0.0.0/8', '192.0.2.5', 'fd00::/8']);
  assert.equal(listed('10.1.2.3'), true);
  assert.equal(listed('::ffff:10.1.2.3'), true);
  assert.equal(listed('192.0.2.5'), true);
  assert.equal(listed('192.0.2.6'), false);
  assert.equal(listed('fd12::1'), true);
  assert.equal(listed('2001:db8::1'), false);
});
