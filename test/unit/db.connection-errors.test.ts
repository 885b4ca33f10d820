import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isConnectionError } from '../../libs/db/src/index.ts';
import { replyForFailure } from '../../apps/channel-node/src/isolate-failures.ts';

/** An error shaped as pg's protocol errors are: a message and a SQLSTATE in `code`. */
const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

test('errors pg raises while Postgres is away or restarting are connection errors, answered 503', () => {
  const away = [
    sqlError('57P01', 'terminating connection due to administrator command'),
    sqlError('57P03', 'the database system is starting up'),
    sqlError('53300', 'sorry, too many clients already'),
    sqlError('08006', 'connection failure'),
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Query read timeout'),
    // a client whose connection broke between two statements of a transaction (a Postgres restart
    // between `begin` and the write): pg refuses the next statement without a code
    new Error('Client has encountered a connection error and is not queryable'),
    new Error('Client was closed and is not queryable'),
  ];
  for (const error of away) {
    assert.equal(isConnectionError(error), true, error.message);
    assert.equal(replyForFailure(error, false).code, 'unavailable', error.message);
  }
});

test("the data's faults and bugs are not connection errors", () => {
  const notAway = [
    sqlError('23505', 'duplicate key value violates unique constraint'),
    sqlError('22P02', 'invalid input syntax for type json'),
    sqlError('42P01', 'relation "x" does not exist'),
    new TypeError("Cannot read properties of undefined (reading 'rows')"),
    undefined,
    'a string',
  ];
  for (const error of notAway) assert.equal(isConnectionError(error), false, String(error));
  assert.equal(replyForFailure(sqlError('42P01', 'relation "x" does not exist'), false).code, 'internal');
});
