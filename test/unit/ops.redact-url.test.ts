import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactUrl } from '@rtm/ops';

test('redact url - passwords, and tokens written as the user name, never reach a log line', () => {
  assert.equal(redactUrl('postgres://rtm:s3cret@db:5432/rtm'), 'postgres://rtm@db:5432/rtm');
  assert.equal(redactUrl('postgres://rtm@db:5432/rtm'), 'postgres://rtm@db:5432/rtm');
  assert.equal(
    redactUrl('postgres://rtm:s3cret@db1:5432,db2:5433/rtm?target_session_attrs=read-write'),
    'postgres://rtm@db1:5432,db2:5433/rtm?target_session_attrs=read-write',
  );
  assert.equal(redactUrl('nats://user:pa55@nats-1:4222,nats://user:pa55@nats-2:4222'), 'nats://user@nats-1:4222,nats://user@nats-2:4222');
  assert.equal(redactUrl('nats://t0ken@nats:4222'), 'nats://nats:4222');
  assert.equal(redactUrl('nats://nats:4222'), 'nats://nats:4222');
  assert.equal(redactUrl('not a url with s3cret'), '(unparseable URL)');
});
