import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { CONFIG_VARIABLES } from '@rtm/config';

test('readme - the configuration table lists every variable of libs/config', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const documented = new Set([...readme.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
  const missing = [...new Set(Object.values(CONFIG_VARIABLES).flat())].filter((name) => !documented.has(name));
  assert.deepEqual(missing, [], `README.md's configuration table lacks ${missing.join(', ')}`);
});

test('readme - the configuration table names the processes that read each variable', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const kinds = Object.keys(CONFIG_VARIABLES) as (keyof typeof CONFIG_VARIABLES)[];
  const wrong: string[] = [];
  for (const [, name, processes] of readme.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \|/gm)) {
    const documented = processes!.trim() === 'all' ? kinds : processes!.split(',').map((p) => p.trim());
    const actual = kinds.filter((kind) => CONFIG_VARIABLES[kind].includes(name!));
    if ([...documented].sort().join() !== [...actual].sort().join())
      wrong.push(`${name}: README says ${processes!.trim()}, read by ${actual.length === kinds.length ? 'all' : actual.join(', ') || 'none'}`);
  }
  assert.deepEqual(wrong, []);
});
