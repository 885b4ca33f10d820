/**
 * DATABASE_URL in libpq's multi-host form: each host becomes a URL node-postgres takes, with the
 * user, password, database and other parameters kept and target_session_attrs read here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { databaseUrlProblem, parseDatabaseUrl, withSessionAttrs } from '../../libs/config/src/database-url.ts';
import { loadGatewayConfig } from '../../libs/config/src/index.ts';

test('database url: several hosts, each with its own URL and port', () => {
  const address = parseDatabaseUrl('postgres://rtm:s%40cret@db1:5432,db2:5433,[::1]:5434/rtm?sslmode=require&target_session_attrs=read-write');
  assert.equal(address.sessionAttrs, 'read-write');
  assert.deepEqual(
    address.hosts.map((h) => [h.host, h.port]),
    [
      ['db1', 5432],
      ['db2', 5433],
      ['::1', 5434],
    ],
  );
  assert.equal(address.hosts[1]!.url, 'postgres://rtm:s%40cret@db2:5433/rtm?sslmode=require');
  assert.equal(address.hosts[2]!.url, 'postgres://rtm:s%40cret@[::1]:5434/rtm?sslmode=require');
});

test('database url: a host without a port takes the port parameter, else 5432', () => {
  assert.deepEqual(
    parseDatabaseUrl('postgresql://a,b:6000/x').hosts.map((h) => h.port),
    [5432, 6000],
  );
  assert.deepEqual(
    parseDatabaseUrl('postgresql://a,b/x?port=7000').hosts.map((h) => h.url),
    ['postgresql://a:7000/x', 'postgresql://b:7000/x'],
  );
});

test('database url: one host is kept as written; the session attrs default to the fallback', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/rtm?application_name=x';
  const address = parseDatabaseUrl(url);
  assert.deepEqual(address.hosts, [{ host: '127.0.0.1', port: 5432, url }]);
  assert.equal(address.sessionAttrs, 'read-write');
  assert.equal(parseDatabaseUrl('postgres://h/rtm?target_session_attrs=prefer-standby', 'any').sessionAttrs, 'prefer-standby');
  assert.equal(parseDatabaseUrl('postgres://h/rtm', 'any').sessionAttrs, 'any');
  assert.equal(parseDatabaseUrl('postgres://h/rtm?target_session_attrs=any').hosts[0]!.url, 'postgres://h/rtm');
  // a socket directory given as a parameter, as node-postgres reads it
  assert.equal(parseDatabaseUrl('postgres:///rtm?host=/var/run/postgresql').hosts[0]!.url, 'postgres:///rtm?host=%2Fvar%2Frun%2Fpostgresql');
});

test('database url: what is wrong is said', () => {
  assert.match(databaseUrlProblem('mysql://h/x')!, /postgres:\/\//);
  assert.match(databaseUrlProblem('postgres://a,,b/x')!, /empty host/);
  assert.match(databaseUrlProblem('postgres://a:99999,b/x')!, /not a port/);
  assert.match(databaseUrlProblem('postgres://a,b/x?target_session_attrs=rw')!, /target_session_attrs must be one of/);
  assert.match(databaseUrlProblem('postgres://a b,c/x')!, /not a host/);
  assert.equal(databaseUrlProblem('postgres://a,b/x'), undefined);
});

test('database url: the read URL takes prefer-standby unless it names target_session_attrs', () => {
  assert.equal(withSessionAttrs('postgres://u@h1,h2:5433/rtm', 'prefer-standby'), 'postgres://u@h1,h2:5433/rtm?target_session_attrs=prefer-standby');
  assert.equal(
    withSessionAttrs('postgres://u@h/rtm?sslmode=disable', 'prefer-standby'),
    'postgres://u@h/rtm?sslmode=disable&target_session_attrs=prefer-standby',
  );
  assert.equal(withSessionAttrs('postgres://u@h/rtm?target_session_attrs=standby', 'prefer-standby'), 'postgres://u@h/rtm?target_session_attrs=standby');
  assert.equal(parseDatabaseUrl(loadGatewayConfig({ DATABASE_READ_URL: 'postgres://u@h1,h2/rtm' }).DATABASE_READ_URL!).sessionAttrs, 'prefer-standby');
  assert.equal(loadGatewayConfig({ DATABASE_READ_URL: '' }).DATABASE_READ_URL, undefined);
  assert.equal(loadGatewayConfig({}).DATABASE_READ_URL, undefined);
});
