import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientAddressKey } from '../../libs/limits/src/client-address-key.ts';

test('client address key - IPv6 addresses of one /64 share a key, whatever their spelling', () => {
  const key = clientAddressKey('2001:db8:1:2::1');
  assert.equal(key, '2001:db8:1:2::/64');
  for (const same of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:7', '[2001:db8:1:2::abcd]', '2001:db8:1:2::9%eth0']) {
    assert.equal(clientAddressKey(same), key, same);
  }
});

test('client address key - neighbouring /64s and IPv4 addresses stay apart', () => {
  assert.notEqual(clientAddressKey('2001:db8:1:3::1'), clientAddressKey('2001:db8:1:2::1'));
  assert.equal(clientAddressKey('2001:db8:1:3::1'), '2001:db8:1:3::/64');
  assert.equal(clientAddressKey('203.0.113.7'), '203.0.113.7');
  assert.notEqual(clientAddressKey('203.0.113.8'), clientAddressKey('203.0.113.7'));
  assert.equal(clientAddressKey('::1'), '::/64');
});

test('client address key - an IPv4-mapped IPv6 address is its IPv4 address; what does not parse is itself', () => {
  assert.equal(clientAddressKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(clientAddressKey('unknown'), 'unknown');
  assert.equal(clientAddressKey(''), '');
  assert.equal(clientAddressKey('10.0.0.256'), '10.0.0.256');
});

test('client address key - an IPv6 address counts by its /64 however it is written (zone, case, embedded IPv4 tail)', () => {
  const key = '2001:db8:7:9::/64';
  for (const address of [
    '2001:db8:7:9::1',
    '2001:0db8:0007:0009:0000:0000:0000:0001',
    '2001:DB8:7:9:ffff:ffff:ffff:ffff',
    '2001:db8:7:9::1%eth0',
    '2001:db8:7:9::10.0.0.1',
  ]) {
    assert.equal(clientAddressKey(address), key, address);
  }
  assert.notEqual(clientAddressKey('2001:db8:7:a::1'), key);
  assert.equal(clientAddressKey('fe80::1'), 'fe80::/64');
  assert.equal(clientAddressKey('2001:db8::'), '2001:db8::/64');
});
