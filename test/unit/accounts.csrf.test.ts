import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csrfTokenFor, csrfTokenMatches, judgeOrigin, newSessionToken, servedOrigin } from '@rtm/accounts';

test('csrf - the token is derived from the session, matches only its own session, and reveals nothing of it', () => {
  const session = newSessionToken();
  const other = newSessionToken();
  const token = csrfTokenFor(session);
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(csrfTokenFor(session), token, 'stable for one session');
  assert.notEqual(csrfTokenFor(other), token);
  assert.ok(!token.includes(session.slice(0, 8)));
  assert.equal(csrfTokenMatches(session, token), true);
  assert.equal(csrfTokenMatches(other, token), false, 'a token of another session');
  assert.equal(csrfTokenMatches(session, undefined), false, 'no token');
  assert.equal(csrfTokenMatches(session, ''), false);
  assert.equal(csrfTokenMatches(session, token.slice(0, -1)), false, 'a prefix');
  assert.equal(csrfTokenMatches(session, `${token}x`), false);
  assert.equal(csrfTokenMatches(session, session), false, 'the session id itself is not the token');
});

test('csrf - the origin a request was made to, from its scheme and host', () => {
  assert.equal(servedOrigin('http', 'localhost:8080'), 'http://localhost:8080');
  assert.equal(servedOrigin('https', 'Dash.Example.com'), 'https://dash.example.com');
  assert.equal(servedOrigin('https', 'dash.example.com:443'), 'https://dash.example.com', 'default port dropped');
  assert.equal(servedOrigin('http', '[::1]:8080'), 'http://[::1]:8080');
  assert.equal(servedOrigin('http', ''), null);
  assert.equal(servedOrigin('ftp', 'example.com'), null);
  assert.equal(servedOrigin('http', 'evil.example/x'), null);
  assert.equal(servedOrigin('http', 'user@evil.example'), null);
});

test('csrf - Origin decides when present, else Referer; neither is absent', () => {
  const expected = 'http://localhost:8080';
  assert.equal(judgeOrigin(expected, 'http://localhost:8080', undefined), 'same');
  assert.equal(judgeOrigin(expected, 'HTTP://LOCALHOST:8080', undefined), 'same');
  assert.equal(judgeOrigin(expected, 'http://localhost:8081', undefined), 'foreign', 'another port');
  assert.equal(judgeOrigin(expected, 'https://localhost:8080', undefined), 'foreign', 'another scheme');
  assert.equal(judgeOrigin(expected, 'http://evil.example', 'http://localhost:8080/dashboard'), 'foreign', 'Origin wins over Referer');
  assert.equal(judgeOrigin(expected, 'null', undefined), 'foreign');
  assert.equal(judgeOrigin(expected, 'not a url', undefined), 'foreign');
  assert.equal(judgeOrigin(expected, undefined, 'http://localhost:8080/dashboard/projects?x=1'), 'same');
  assert.equal(judgeOrigin(expected, undefined, 'http://localhost:8080.evil.example/'), 'foreign');
  assert.equal(judgeOrigin(expected, undefined, 'http://evil.example/http://localhost:8080'), 'foreign');
  assert.equal(judgeOrigin(expected, undefined, undefined), 'absent');
  assert.equal(judgeOrigin(null, 'http://localhost:8080', undefined), 'foreign', 'an unknown served origin matches nothing');
});
