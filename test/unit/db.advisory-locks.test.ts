/**
 * The advisory-lock registry: every key is distinct (two subsystems sharing a key would block or,
 * worse, fence each other), pair classes fit Postgres's 32-bit key, and no source file takes an
 * advisory lock on a literal number instead of a registry entry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ADVISORY_LOCKS } from '../../libs/db/src/advisory-locks.ts';

test('advisory locks: keys are distinct and fit a 32-bit class', () => {
  const values = Object.values(ADVISORY_LOCKS);
  assert.equal(new Set(values).size, values.length);
  for (const value of values) assert.ok(Number.isInteger(value) && value > 0 && value < 2 ** 31, `${value}`);
});

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|sql)$/.test(name)) out.push(path);
  }
  return out;
}

test('advisory locks: no lock is taken on a literal key outside the registry', () => {
  const literal = /pg_(try_)?advisory_(xact_)?(lock|unlock)(_shared)?\(\s*\d/;
  const offenders = ['apps', 'libs'].flatMap(sources).filter((file) => literal.test(readFileSync(file, 'utf8')));
  assert.deepEqual(offenders, []);
});
