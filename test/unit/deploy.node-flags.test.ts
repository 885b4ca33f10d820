/**
 * Every way of running a process (npm start, the tests, and each file of deploy/) gives node the
 * options of libs/ops/src/node-flags.ts: a deploy file that starts a channel-node without them
 * (or with an old value) fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS, type ProcessKind } from '@rtm/ops';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = ['deploy/Procfile', 'deploy/compose.yaml', 'deploy/k8s/gateway.yaml', 'deploy/k8s/channel-node.yaml', 'deploy/k8s/dispatcher.yaml', 'deploy/systemd/rtm-gateway@.service', 'deploy/systemd/rtm-channel-node@.service', 'deploy/systemd/rtm-dispatcher@.service'];

/** The node options written before `--import tsx apps/<kind>/src/main.ts` on each line that starts one. */
function startsIn(text: string): { kind: ProcessKind; options: string[] }[] {
  const found: { kind: ProcessKind; options: string[] }[] = [];
  for (const line of text.split('\n')) {
    const entry = /apps\/(gateway|channel-node|dispatcher)\/src\/main\.ts/.exec(line);
    if (!entry || !/\bnode\b/.test(line)) continue;
    const before = line.slice(line.search(/\bnode\b/) + 4, line.indexOf('--import'));
    const options = [...before.matchAll(/--[a-z-]+(?:=[^\s",]+)?/g)].map((m) => m[0]);
    found.push({ kind: entry[1] as ProcessKind, options });
  }
  return found;
}

test('deploy: every file that starts a process gives node the options of node-flags.ts', () => {
  const seen = new Set<ProcessKind>();
  for (const file of FILES) {
    const starts = startsIn(readFileSync(join(ROOT, file), 'utf8'));
    assert.ok(starts.length > 0, `${file} starts a process`);
    for (const { kind, options } of starts) {
      assert.deepEqual(options, [...NODE_FLAGS[kind]], `${file}: ${kind}`);
      seen.add(kind);
    }
  }
  assert.deepEqual([...seen].sort(), ['channel-node', 'dispatcher', 'gateway']);
});

test('deploy: the channel-node runs with a larger young generation, the others with the defaults', () => {
  assert.deepEqual(NODE_FLAGS['channel-node'], ['--max-semi-space-size=64']);
  assert.deepEqual(NODE_FLAGS.gateway, []);
  assert.deepEqual(NODE_FLAGS.dispatcher, []);
});
