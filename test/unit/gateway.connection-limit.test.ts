import { test } from 'node:test';
import assert from 'node:assert/strict';
import { believedProxy } from '../../apps/gateway/src/http/connection-limit.ts';

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
