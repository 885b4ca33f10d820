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
