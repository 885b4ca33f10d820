import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyError, FAILURE_CLASSES, statusFailure } from '@rtm/webhooks';
import { BLOCKED_ADDRESS_CODE, DNS_FAILURE_CODE } from '@rtm/rules';

const err = (code: string, extra: object = {}) => Object.assign(new Error(`raw library text for ${code}: db_password=hunter2`), { code, ...extra });

test('failure class - library errors map to the fixed vocabulary', () => {
  const cases: [unknown, string][] = [
    [err('ECONNREFUSED'), 'refused'],
    [err('ECONNRESET'), 'reset'],
    [err('UND_ERR_SOCKET'), 'reset'],
    [err('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [err('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [new DOMException('timed out after 10000 ms', 'TimeoutError'), 'timeout'],
    [new DOMException('aborted', 'AbortError'), 'timeout'],
    [err('ENOTFOUND'), 'dns'],
    [err(DNS_FAILURE_CODE), 'dns'],
    [err(BLOCKED_ADDRESS_CODE), 'blocked_address'],
    [err('HPE_INVALID_CONSTANT'), 'protocol'],
    [Object.assign(new Error('Expected HTTP/'), { name: 'HTTPParserError', code: undefined }), 'protocol'],
    [err('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    [err('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls'],
    [err('CERT_HAS_EXPIRED'), 'tls'],
    [err('EHOSTUNREACH'), 'unreachable'],
    [err('EWHATEVER'), 'network'],
    [new Error('no code at all'), 'network'],
    ['a string', 'network'],
    [null, 'network'],
  ];
  for (const [error, expected] of cases) assert.equal(classifyError(error), expected, String((error as Error)?.message ?? error));
});

test('failure class - the cause chain is looked through (undici wraps socket errors)', () => {
  const wrapped = Object.assign(new TypeError('fetch failed'), { cause: err('ECONNREFUSED') });
  assert.equal(classifyError(wrapped), 'refused');
  const deeper = Object.assign(new Error('outer'), { cause: Object.assign(new Error('mid'), { cause: err(BLOCKED_ADDRESS_CODE) }) });
  assert.equal(classifyError(deeper), 'blocked_address');
});

test('failure class - every class is a short fixed word, never the message', () => {
  for (const error of [err('ECONNREFUSED'), err('X'), err('HPE_X')]) {
    const word = classifyError(error);
    assert.ok(FAILURE_CLASSES.includes(word), word);
    assert.doesNotMatch(word, /hunter2|raw/);
  }
  assert.equal(statusFailure(503), 'status 503');
});
